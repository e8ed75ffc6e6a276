#include "device/copy_bandwidth.hpp"

#include "util/statistics.hpp"

#include <kbench/support/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

namespace kb {

double measure_copy_gbps(int device) {
  KB_CUDA_CHECK(cudaSetDevice(device));
  // Large against any L2 (H100: 50 MB), small against any device memory.
  constexpr std::size_t kBytes = std::size_t{512} << 20;
  void *from = nullptr, *to = nullptr;
  KB_CUDA_CHECK(cudaMalloc(&from, kBytes));
  if (cudaMalloc(&to, kBytes) != cudaSuccess) {
    cudaFree(from);
    return 0;
  }
  cudaMemset(from, 1, kBytes);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<double> samples;
  for (int i = 0; i < 22; ++i) {
    cudaEventRecord(start);
    cudaMemcpyAsync(to, from, kBytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    if (i >= 2) samples.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(from);
  cudaFree(to);
  return 2.0 * kBytes / (summarize(samples).median * 1e-3) / 1e9;
}

}  // namespace kb
