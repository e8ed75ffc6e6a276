// Host buffers that are not zeroed when allocated. std::vector<T>(n) value-initialises, so a
// 512 MB buffer is written (and every page of it faulted in) on one thread before the parallel
// loop that fills it writes it again; a HostVector leaves its pages untouched until that loop.
#pragma once

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
 public:
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };

  DefaultInitAllocator() noexcept = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

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
