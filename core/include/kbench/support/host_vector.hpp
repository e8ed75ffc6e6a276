// Host buffers that are not zeroed when allocated. std::vector<T>(n) value-initialises, so a
// 512 MB buffer is written (and every page of it faulted in) on one thread before the parallel
// loop that fills it writes it again; a HostVector leaves its pages untouched until that loop.
#pragma once

#include <sys/mman.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace kb {

// std::allocator, except that construct() without arguments default-initialises: no write for
// arithmetic types.
template <typename T>
class DefaultInitAllocator : public std::allocator<T> {
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

 public:
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };

  DefaultInitAllocator() noexcept = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  // Large buffers are aligned to 2 MiB and marked for transparent huge pages: first touching a
  // gigabyte of 4 KiB pages is a quarter of a million page faults, and a case's setup is mostly
  // that; with 2 MiB pages it is 512.
  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return std::allocator<T>::allocate(n);
    void* p = std::aligned_alloc(kHugePage, (bytes + kHugePage - 1) / kHugePage * kHugePage);
    if (!p) throw std::bad_alloc();
    madvise(p, bytes, MADV_HUGEPAGE);  // advice only: where THP is off, plain pages
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugePage) return std::allocator<T>::deallocate(p, n);
    std::free(p);
  }

  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

// Elements of HostVector<T>(n) or resize(n) are indeterminate until written.
template <typename T>
using HostVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace kb
