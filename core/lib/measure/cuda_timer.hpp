// A pair of CUDA events around work enqueued on one stream: the device's own clock of that work.
#pragma once

#include <kbench/support/error.hpp>

#include <cuda_runtime_api.h>

namespace kb {

class CudaTimer {
 public:
  CudaTimer() {
    KB_CUDA_CHECK(cudaEventCreate(&start_));
    if (const cudaError_t error = cudaEventCreate(&stop_); error != cudaSuccess) {
      cudaEventDestroy(start_);
      KB_CUDA_CHECK(error);
    }
  }
  ~CudaTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  CudaTimer(const CudaTimer&) = delete;
  CudaTimer& operator=(const CudaTimer&) = delete;

  void start(cudaStream_t stream) { cudaEventRecord(start_, stream); }
  void stop(cudaStream_t stream) { cudaEventRecord(stop_, stream); }
  // Waits for the stop event; its error is the first error of the work in between.
  cudaError_t wait() { return cudaEventSynchronize(stop_); }
  // After wait(): microseconds between the two events.
  double elapsed_us() const {
    float ms = 0;
    cudaEventElapsedTime(&ms, start_, stop_);
    return ms * 1e3;
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

}  // namespace kb
