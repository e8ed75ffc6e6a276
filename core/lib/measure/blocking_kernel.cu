#include "measure/blocking_kernel.hpp"

#include <kbench/support/error.hpp>

namespace kb {
namespace {

// Give up after this long, so a launch that itself waits for the stream cannot deadlock.
constexpr unsigned long long kTimeoutNs = 200'000'000ull;

__global__ void spin_until_released(volatile int* release, volatile int* timed_out) {
  unsigned long long start;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  while (*release == 0) {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - start > kTimeoutNs) {
      *timed_out = 1;
      return;
    }
  }
}

__global__ void empty_kernel() {}

}  // namespace

void launch_empty_kernel(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  KB_CUDA_CHECK(cudaGetLastError());
}

BlockingKernel::BlockingKernel() {
  void* flags = nullptr;
  KB_CUDA_CHECK(cudaHostAlloc(&flags, 2 * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
  release_flag_ = static_cast<volatile int*>(flags);
  timeout_flag_ = release_flag_ + 1;
}

BlockingKernel::~BlockingKernel() { cudaFreeHost(const_cast<int*>(release_flag_)); }

void BlockingKernel::block(cudaStream_t stream) {
  *release_flag_ = 0;
  *timeout_flag_ = 0;
  int *release = nullptr, *timed_out = nullptr;
  KB_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&release),
                                         const_cast<int*>(release_flag_), 0));
  KB_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&timed_out),
                                         const_cast<int*>(timeout_flag_), 0));
  spin_until_released<<<1, 1, 0, stream>>>(release, timed_out);
  KB_CUDA_CHECK(cudaGetLastError());
}

void BlockingKernel::release() { *release_flag_ = 1; }

bool BlockingKernel::timed_out() const { return *timeout_flag_ != 0; }

}  // namespace kb
