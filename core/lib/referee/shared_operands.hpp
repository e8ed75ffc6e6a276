// The buffers a strategy computes on, made by the referee and mapped by the worker: the only
// memory the two processes share. Device operands are CUDA allocations the worker opens through
// their IPC handles; host operands are files in memory (memfd) both map. The family's own buffers,
// its reference and its secrets stay in the referee: it copies what it drew into the shared
// inputs and what the strategy wrote out of the shared outputs before its family checks them.
//
// Each operand sits between two guard zones of kGuardBytes filled with a known pattern: a launch
// that writes before or after an operand (an off-by-one grid, a reduction's partials parked past
// its output) changes them, and the referee names the operand and the offset.
#pragma once

#include <kbench/plugin.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace kb {

// The guard zones' size. A device operand starts on a large page (2 MiB), as a large cudaMalloc
// does, a host one on a page.
inline constexpr std::uint64_t kGuardBytes = 4096;

// How a shared operand travels to the worker: its shape, and where its memory is (the IPC handle's
// bytes, or the descriptor of a memfd sent beside the record).
struct OperandLayout {
  kb_dtype dtype = KB_DTYPE_F32;
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;
  std::string ipc_handle;  // a device operand's cudaIpcMemHandle_t, as bytes; "" for host memory
};

// The referee's side: allocated with its guards, for the life of one case.
class SharedOperand {
 public:
  // Throws kb::Error (KB_OOM when memory runs out).
  SharedOperand(kb_device_kind where, kb_dtype dtype, std::uint64_t count, std::uint64_t bytes);
  ~SharedOperand();
  SharedOperand(const SharedOperand&) = delete;
  SharedOperand& operator=(const SharedOperand&) = delete;

  kb_operand operand() const;
  OperandLayout layout() const;
  int memory_fd() const { return memory_fd_; }  // a host operand's memfd, -1 for a device one

  // The guard zones as written, or what a launch did to them, the operand called `name`:
  // "12 bytes after outputs[0] (offsets +0 to +11)".
  std::optional<std::string> guard_damage(const std::string& name) const;
  void restore_guards();

 private:
  kb_device_kind where_;
  kb_dtype dtype_;
  std::uint64_t count_, bytes_;
  unsigned char* base_ = nullptr;  // the allocation: guard, operand, guard
  int memory_fd_ = -1;
};

// The worker's side: one operand mapped into its process for the life of a case.
class MappedOperand {
 public:
  // `memory_fd`: the memfd of a host operand (taken), -1 for a device one. Throws kb::Error.
  MappedOperand(kb_device_kind where, const OperandLayout& layout, int memory_fd);
  ~MappedOperand();
  MappedOperand(const MappedOperand&) = delete;
  MappedOperand& operator=(const MappedOperand&) = delete;

  kb_operand operand() const { return operand_; }

 private:
  kb_device_kind where_;
  void* base_ = nullptr;
  std::uint64_t mapped_bytes_ = 0;
  kb_operand operand_{};
};

}  // namespace kb
