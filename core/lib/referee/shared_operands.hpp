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

#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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

  // Whether this host operand's file can hold an operand of `bytes` in `where`'s memory: the same
  // number of large pages. `reshape` then makes it that operand, its guards moved to its end.
  bool fits(kb_device_kind where, std::uint64_t bytes) const;
  void reshape(kb_dtype dtype, std::uint64_t count, std::uint64_t bytes);
  bool host() const { return memory_fd_ >= 0; }
  std::uint64_t allocated_bytes() const;  // guards and all

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

  // Whether this is a host operand mapping the file `memory_fd` names, at `layout`'s size; `reshape`
  // then makes it `layout`'s operand, its mirror pulled from the file.
  bool maps(int memory_fd, const OperandLayout& layout) const;
  bool host() const { return mirror_ != nullptr; }
  std::uint64_t allocated_bytes() const { return mapped_bytes_; }  // of the file, and the mirror
  void reshape(const OperandLayout& layout);

 private:
  kb_device_kind where_;
  dev_t file_device_ = 0;  // a host operand's file, as fstat names it
  ino_t file_inode_ = 0;
  void* base_ = nullptr;            // the device allocation, or the shared file's mapping
  unsigned char* mirror_ = nullptr;  // a host operand's private copy
  std::uint64_t mapped_bytes_ = 0;
  kb_operand operand_{};
};

// The bytes each side may keep of finished cases' host operands: an eighth of the host's memory,
// at most 4 GiB.
std::uint64_t kept_operand_budget();

// What one side keeps of its finished cases' host operands, for later cases of the same sizes: a
// family that asks for a gigabyte again (reduce's four cases of 2^28, between smaller ones) gets
// the same file back, already filled, and the worker finds it among the mappings and mirrors it
// kept. A gigabyte's first fill and mirror cost seconds. The most recently kept come first; past
// the budget, the oldest are freed. The referee and the worker keep the same operands in the same
// order, so a file the referee hands again is one the worker still maps. Device operands are
// never kept: they are allocated per case.
template <typename Operand>
class KeptOperands {
 public:
  explicit KeptOperands(std::uint64_t budget = kept_operand_budget()) : budget_(budget) {}
  // The host operands among `operands` kept; the others freed, and `operands` emptied.
  void keep(std::vector<std::unique_ptr<Operand>>& operands);
  // The most recently kept operand `accepts` is true of, no longer kept; null if none is.
  template <typename Accepts>
  std::unique_ptr<Operand> take(Accepts&& accepts);
  void clear() {
    kept_.clear();
    bytes_ = 0;
  }

 private:
  std::uint64_t budget_;
  std::deque<std::unique_ptr<Operand>> kept_;
  std::uint64_t bytes_ = 0;
};

using SpareOperands = KeptOperands<SharedOperand>;  // the referee's, per worker
using KeptMappings = KeptOperands<MappedOperand>;   // the worker's

// The referee's side: one operand per wanted one, in `where`'s memory, a kept one of the same size
// (reshaped) where there is one. Throws kb::Error.
std::vector<std::unique_ptr<SharedOperand>> take_shared_operands(
    SpareOperands& spare, kb_device_kind where, const std::vector<kb_operand>& wanted);

// The worker's side: the case's operands, each the kept mapping of its file where there is one
// (its mirror pulled from the file), or a new mapping. Takes `memory_fds` (one per host operand,
// in order). Throws kb::Error.
std::vector<std::unique_ptr<MappedOperand>> map_shared_operands(
    KeptMappings& kept, kb_device_kind where, const std::vector<OperandLayout>& layouts,
    std::vector<int> memory_fds);

template <typename Operand>
void KeptOperands<Operand>::keep(std::vector<std::unique_ptr<Operand>>& operands) {
  for (auto& operand : operands) {
    if (!operand->host()) continue;
    bytes_ += operand->allocated_bytes();
    kept_.push_front(std::move(operand));
  }
  operands.clear();
  while (bytes_ > budget_) {
    bytes_ -= kept_.back()->allocated_bytes();
    kept_.pop_back();
  }
}

template <typename Operand>
template <typename Accepts>
std::unique_ptr<Operand> KeptOperands<Operand>::take(Accepts&& accepts) {
  for (auto it = kept_.begin(); it != kept_.end(); ++it) {
    if (!accepts(**it)) continue;
    std::unique_ptr<Operand> taken = std::move(*it);
    kept_.erase(it);
    bytes_ -= taken->allocated_bytes();
    return taken;
  }
  return nullptr;
}

}  // namespace kb
