// cp.async (sm_80 and later): global memory to shared memory without passing through registers,
// for .cu plugins. Of a copy of kBytes, the first `valid` bytes are read and the rest zero-filled,
// so the partial tiles at a matrix's edge need no other code; with `valid` 0 nothing is read, but
// `from` must still be an address the kernel may read.
#pragma once

#include <cstdint>

namespace kb {

// kBytes: 16 (cached in L2 only: the data go to shared memory once), or 4 or 8 (L1 and L2).
template <int kBytes>
__device__ inline void copy_async(void* to, const void* from, int valid) {
  static_assert(kBytes == 4 || kBytes == 8 || kBytes == 16, "cp.async copies 4, 8 or 16 bytes");
  const auto shared = static_cast<std::uint32_t>(__cvta_generic_to_shared(to));
  if constexpr (kBytes == 16) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(shared), "l"(from),
                 "r"(valid)
                 : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(shared), "l"(from),
                 "n"(kBytes), "r"(valid)
                 : "memory");
  }
}

// Closes the group of this thread's copies issued since the last commit.
__device__ inline void copy_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Waits until at most kPending of this thread's committed groups are still in flight.
template <int kPending>
__device__ inline void copy_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(kPending) : "memory");
}

}  // namespace kb
