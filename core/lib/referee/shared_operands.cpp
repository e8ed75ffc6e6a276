#include "referee/shared_operands.hpp"

#include <kbench/support/error.hpp>
#include <kbench/support/parallel.hpp>

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace kb {
namespace {

// The guard zones' bytes: no run of equal bytes, so a memset or a zero fill changes them.
unsigned char guard_byte(std::uint64_t offset) {
  return static_cast<unsigned char>(0xA5u ^ (offset * 37u) ^ (offset >> 8));
}

std::vector<unsigned char> guard_pattern() {
  std::vector<unsigned char> pattern(kGuardBytes);
  for (std::uint64_t i = 0; i < kGuardBytes; ++i) pattern[i] = guard_byte(i);
  return pattern;
}

// An operand starts a large page into its allocation, the front guard zone at that page's end, and
// the allocation is a whole number of large pages, as a large cudaMalloc or the families' host
// buffers are: a device allocation of another size is mapped with small pages where the worker
// opens it, and a transpose of 8192^2 doubles ran eight times slower on it.
constexpr std::uint64_t kLargePage = std::uint64_t{2} << 20;

std::uint64_t front_bytes() { return kLargePage; }

std::uint64_t allocation_bytes(std::uint64_t bytes) {
  return (front_bytes() + bytes + kGuardBytes + kLargePage - 1) / kLargePage * kLargePage;
}

[[noreturn]] void system_failure(const char* what) {
  throw Error(errno == ENOMEM || errno == ENOSPC ? KB_OOM : KB_ERROR,
              std::string(what) + ": " + std::strerror(errno));
}

// "3 bytes after outputs[0] (offsets +0 to +2)": the changed bytes of a guard zone against the
// pattern.
std::optional<std::string> damage(const std::vector<unsigned char>& zone, const char* side,
                                  const std::string& name) {
  const std::vector<unsigned char> pattern = guard_pattern();
  std::uint64_t changed = 0, first = 0, last = 0;
  for (std::uint64_t i = 0; i < kGuardBytes; ++i) {
    if (zone[i] == pattern[i]) continue;
    if (changed++ == 0) first = i;
    last = i;
  }
  if (changed == 0) return std::nullopt;
  const bool before = std::strcmp(side, "before") == 0;
  // Offsets from the operand: negative before its first byte, from +0 past its last.
  const long long from = before ? static_cast<long long>(first) - static_cast<long long>(kGuardBytes)
                                : static_cast<long long>(first);
  const long long to = before ? static_cast<long long>(last) - static_cast<long long>(kGuardBytes)
                              : static_cast<long long>(last);
  return std::to_string(last - first + 1) + " bytes " + side + " " + name + " (offsets " +
         (from >= 0 ? "+" : "") + std::to_string(from) + " to " + (to >= 0 ? "+" : "") +
         std::to_string(to) + ")";
}

// Pages per chunk of the host's threads: 1 MiB, large enough to outweigh handing a chunk out.
constexpr std::size_t kPagesPerChunk = 256;

}  // namespace

void copy_changed_pages(void* to, const void* from, std::uint64_t bytes) {
  auto* target = static_cast<unsigned char*>(to);
  const auto* source = static_cast<const unsigned char*>(from);
  const std::size_t pages = static_cast<std::size_t>((bytes + kGuardBytes - 1) / kGuardBytes);
  parallel_for(pages, kPagesPerChunk, [=](std::size_t first, std::size_t end) {
    for (std::size_t page = first; page < end; ++page) {
      const std::uint64_t at = page * kGuardBytes;
      const std::uint64_t length = std::min(kGuardBytes, bytes - at);
      if (std::memcmp(target + at, source + at, length) != 0) {
        std::memcpy(target + at, source + at, length);
      }
    }
  });
}

SharedOperand::SharedOperand(kb_device_kind where, kb_dtype dtype, std::uint64_t count,
                             std::uint64_t bytes)
    : where_(where), dtype_(dtype), count_(count), bytes_(bytes) {
  const std::uint64_t total = allocation_bytes(bytes);
  if (where == KB_DEVICE_CUDA) {
    KB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&base_), total));
  } else {
    memory_fd_ = ::memfd_create("kbench-operand", MFD_CLOEXEC);
    if (memory_fd_ < 0) system_failure("memfd_create");
    if (::ftruncate(memory_fd_, static_cast<off_t>(total)) != 0) {
      const int error = errno;
      ::close(memory_fd_);
      errno = error;
      system_failure("ftruncate of a shared operand");
    }
    void* mapped = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, memory_fd_, 0);
    if (mapped == MAP_FAILED) {
      const int error = errno;
      ::close(memory_fd_);
      errno = error;
      system_failure("mmap of a shared operand");
    }
    base_ = static_cast<unsigned char*>(mapped);
  }
  restore_guards();
}

SharedOperand::~SharedOperand() {
  if (where_ == KB_DEVICE_CUDA) {
    cudaFree(base_);
  } else {
    ::munmap(base_, allocation_bytes(bytes_));
    ::close(memory_fd_);
  }
}

kb_operand SharedOperand::operand() const {
  return kb_operand{base_ + front_bytes(), count_, bytes_, dtype_};
}

std::uint64_t SharedOperand::allocated_bytes() const { return allocation_bytes(bytes_); }

bool SharedOperand::fits(kb_device_kind where, std::uint64_t bytes) const {
  return where == KB_DEVICE_HOST && where_ == KB_DEVICE_HOST &&
         allocation_bytes(bytes) == allocation_bytes(bytes_);
}

void SharedOperand::reshape(kb_dtype dtype, std::uint64_t count, std::uint64_t bytes) {
  dtype_ = dtype;
  count_ = count;
  bytes_ = bytes;
  restore_guards();
}

OperandLayout SharedOperand::layout() const {
  OperandLayout layout{dtype_, count_, bytes_, ""};
  if (where_ == KB_DEVICE_CUDA) {
    cudaIpcMemHandle_t handle{};
    KB_CUDA_CHECK(cudaIpcGetMemHandle(&handle, base_));
    layout.ipc_handle.assign(reinterpret_cast<const char*>(&handle), sizeof handle);
  }
  return layout;
}

void SharedOperand::restore_guards() {
  const std::vector<unsigned char> pattern = guard_pattern();
  unsigned char* zones[] = {base_ + front_bytes() - kGuardBytes,
                            base_ + front_bytes() + bytes_};
  for (unsigned char* zone : zones) {
    if (where_ == KB_DEVICE_CUDA) {
      KB_CUDA_CHECK(cudaMemcpy(zone, pattern.data(), kGuardBytes, cudaMemcpyHostToDevice));
    } else {
      std::memcpy(zone, pattern.data(), kGuardBytes);
    }
  }
}

std::optional<std::string> SharedOperand::guard_damage(const std::string& name) const {
  const unsigned char* zones[] = {base_ + front_bytes() - kGuardBytes,
                                  base_ + front_bytes() + bytes_};
  const char* sides[] = {"before", "after"};
  for (int i = 0; i < 2; ++i) {
    std::vector<unsigned char> zone(kGuardBytes);
    if (where_ == KB_DEVICE_CUDA) {
      KB_CUDA_CHECK(cudaMemcpy(zone.data(), zones[i], kGuardBytes, cudaMemcpyDeviceToHost));
    } else {
      std::memcpy(zone.data(), zones[i], kGuardBytes);
    }
    if (auto found = damage(zone, sides[i], name)) return found;
  }
  return std::nullopt;
}

MappedOperand::MappedOperand(kb_device_kind where, const OperandLayout& layout, int memory_fd)
    : where_(where) {
  const std::uint64_t total = allocation_bytes(layout.bytes);
  if (where == KB_DEVICE_CUDA) {
    cudaIpcMemHandle_t handle{};
    if (layout.ipc_handle.size() != sizeof handle) {
      throw Error(KB_ERROR, "a device operand without its IPC handle");
    }
    std::memcpy(&handle, layout.ipc_handle.data(), sizeof handle);
    KB_CUDA_CHECK(cudaIpcOpenMemHandle(&base_, handle, cudaIpcMemLazyEnablePeerAccess));
  } else {
    if (memory_fd < 0) throw Error(KB_ERROR, "a host operand without its memory");
    struct stat file {};
    if (::fstat(memory_fd, &file) == 0) {
      file_device_ = file.st_dev;
      file_inode_ = file.st_ino;
    }
    // Populated: the file's pages mapped at once, not one fault each (a quarter of a million for
    // a gigabyte).
    void* mapped =
        ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, memory_fd, 0);
    const int error = errno;
    ::close(memory_fd);
    errno = error;
    if (mapped == MAP_FAILED) system_failure("mmap of a shared operand");
    base_ = mapped;
    mapped_bytes_ = total;
    mirror_ = static_cast<unsigned char*>(std::aligned_alloc(kLargePage, total));
    if (mirror_ == nullptr) {
      ::munmap(base_, mapped_bytes_);
      throw Error(KB_OOM, "no memory for a host operand's mirror");
    }
    ::madvise(mirror_, total, MADV_HUGEPAGE);  // advice only: where THP is off, plain pages
    // Filled by this thread, the one that calls the strategy: the first write places each page on
    // its memory node (pages placed by other threads made host plugins 1.2-1.6x slower on a
    // 16-core GPU machine; see Array's zero_here).
    std::memcpy(mirror_, base_, total);
    operand_ = kb_operand{mirror_ + front_bytes(), layout.count, layout.bytes, layout.dtype};
    return;
  }
  operand_ = kb_operand{static_cast<unsigned char*>(base_) + front_bytes(), layout.count,
                        layout.bytes, layout.dtype};
}

MappedOperand::~MappedOperand() {
  if (where_ == KB_DEVICE_CUDA) {
    cudaIpcCloseMemHandle(base_);
  } else {
    ::munmap(base_, mapped_bytes_);
    std::free(mirror_);
  }
}

void MappedOperand::pull() {
  if (mirror_ != nullptr) {
    copy_changed_pages(mirror_, static_cast<const unsigned char*>(base_), mapped_bytes_);
  }
}

void MappedOperand::push() {
  if (mirror_ != nullptr) copy_changed_pages(static_cast<unsigned char*>(base_), mirror_, mapped_bytes_);
}

bool MappedOperand::maps(int memory_fd, const OperandLayout& layout) const {
  struct stat file {};
  return host() && ::fstat(memory_fd, &file) == 0 && file.st_dev == file_device_ &&
         file.st_ino == file_inode_ && allocation_bytes(layout.bytes) == mapped_bytes_;
}

void MappedOperand::reshape(const OperandLayout& layout) {
  operand_ = kb_operand{mirror_ + front_bytes(), layout.count, layout.bytes, layout.dtype};
  pull();
}

std::uint64_t kept_operand_budget() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_bytes = ::sysconf(_SC_PAGESIZE);
  const std::uint64_t memory =
      pages > 0 && page_bytes > 0 ? std::uint64_t(pages) * std::uint64_t(page_bytes) : 0;
  return std::min(memory / 8, std::uint64_t{4} << 30);
}

std::vector<std::unique_ptr<SharedOperand>> take_shared_operands(
    SpareOperands& spare, kb_device_kind where, const std::vector<kb_operand>& wanted) {
  std::vector<std::unique_ptr<SharedOperand>> taken;
  for (const kb_operand& o : wanted) {
    auto kept = spare.take([&](const SharedOperand& k) { return k.fits(where, o.bytes); });
    if (kept) {
      kept->reshape(o.dtype, o.count, o.bytes);
    } else {
      kept = std::make_unique<SharedOperand>(where, o.dtype, o.count, o.bytes);
    }
    taken.push_back(std::move(kept));
  }
  return taken;
}

std::vector<std::unique_ptr<MappedOperand>> map_shared_operands(
    KeptMappings& kept, kb_device_kind where, const std::vector<OperandLayout>& layouts,
    std::vector<int> memory_fds) {
  struct ClosedAtEnd {
    std::vector<int>& fds;
    ~ClosedAtEnd() {
      for (const int fd : fds) {
        if (fd >= 0) ::close(fd);
      }
    }
  } closed{memory_fds};
  const bool host = where == KB_DEVICE_HOST;
  if (host && memory_fds.size() < layouts.size()) {
    throw Error(KB_ERROR, "a host operand without its memory");
  }
  std::vector<std::unique_ptr<MappedOperand>> mapped;
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    std::unique_ptr<MappedOperand> operand;
    if (host) {
      operand = kept.take([&](const MappedOperand& k) { return k.maps(memory_fds[i], layouts[i]); });
    }
    if (operand) {
      operand->reshape(layouts[i]);
    } else {
      const int fd = host ? std::exchange(memory_fds[i], -1) : -1;
      operand = std::make_unique<MappedOperand>(where, layouts[i], fd);
    }
    mapped.push_back(std::move(operand));
  }
  return mapped;
}

}  // namespace kb
