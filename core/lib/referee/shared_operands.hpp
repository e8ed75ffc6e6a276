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

// The guard zones' size. An operand starts on a large page (2 MiB), as a large cudaMalloc does.
inline constexpr std::uint64_t kGuardBytes = 4096;

// Copies `bytes` from `from` to `to` page by page (kGuardBytes), only the pages that differ, on the
// host's threads: what the other side did not change stays as it was in this process's caches, and
// an operand of a gigabyte is compared in tens of milliseconds, not hundreds.
void copy_changed_pages(void* to, const void* from, std::uint64_t bytes);

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

// The worker's side: one operand mapped into its process for the life of a case. A device operand
// is the referee's allocation, opened. A host operand is a private mirror of the shared file, in
// huge pages where the kernel gives them (a file in memory gets none, and a CPU transpose of 8192^2
// ran at half speed on it): the worker pulls what the referee wrote (a draw, a poison) into the
// mirror and pushes the mirror back before the referee reads it (a check), guard zones and all,
// page by page and only the pages that differ.
class MappedOperand {
 public:
  // `memory_fd`: the memfd of a host operand (taken), -1 for a device one. Throws kb::Error.
  MappedOperand(kb_device_kind where, const OperandLayout& layout, int memory_fd);
  ~MappedOperand();
  MappedOperand(const MappedOperand&) = delete;
  MappedOperand& operator=(const MappedOperand&) = delete;

  kb_operand operand() const { return operand_; }
  void pull();  // a host operand: the shared file into the mirror
  void push();  // a host operand: the mirror into the shared file

 private:
  kb_device_kind where_;
  void* base_ = nullptr;            // the device allocation, or the shared file's mapping
  unsigned char* mirror_ = nullptr;  // a host operand's private copy
  std::uint64_t mapped_bytes_ = 0;
  kb_operand operand_{};
};

}  // namespace kb
