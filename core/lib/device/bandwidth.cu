#include "device/bandwidth.hpp"

#include "util/statistics.hpp"

#include <kbench/support/error.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kb {
namespace {

// 16-byte loads, four in flight per thread, the sum kept so the loads cannot be dropped. Read
// `passes` times over `bytes`.
__global__ void read_kernel(const uint4* data, std::size_t count, int passes, unsigned* sink) {
  unsigned sum = 0;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (int pass = 0; pass < passes; ++pass) {
    std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < count; i += 4 * stride) {
      const uint4 a = data[i], b = data[i + stride], c = data[i + 2 * stride],
                  d = data[i + 3 * stride];
      sum += a.x ^ b.y ^ c.z ^ d.w;
    }
    for (; i < count; i += stride) sum += data[i].x;
  }
  if (sum == 0x12345678u) *sink = sum;
}

template <typename Enqueue>
double median_ms(Enqueue enqueue, int runs) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<double> samples;
  for (int i = 0; i < runs + 2; ++i) {
    cudaEventRecord(start);
    enqueue();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    if (i >= 2) samples.push_back(ms);  // the first two warm up
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return summarize(samples).median;
}

}  // namespace

MeasuredBandwidth measure_bandwidth(int device) {
  KB_CUDA_CHECK(cudaSetDevice(device));
  MeasuredBandwidth measured;
  // Large against any L2 (H100: 50 MB), small against any device memory.
  constexpr std::size_t kBytes = std::size_t{512} << 20;
  void *from = nullptr, *to = nullptr;
  unsigned* sink = nullptr;
  KB_CUDA_CHECK(cudaMalloc(&from, kBytes));
  if (cudaMalloc(&to, kBytes) != cudaSuccess || cudaMalloc(&sink, sizeof *sink) != cudaSuccess) {
    cudaFree(from);
    cudaFree(to);
    return measured;
  }
  cudaMemset(from, 1, kBytes);
  measured.copy_gbps =
      2.0 * kBytes /
      (median_ms([&] { cudaMemcpyAsync(to, from, kBytes, cudaMemcpyDeviceToDevice); }, 20) *
       1e-3) /
      1e9;

  int sms = 0, l2 = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
  const unsigned blocks = static_cast<unsigned>(std::max(sms, 1) * 8);
  const auto* data = static_cast<const uint4*>(from);
  measured.read_gbps =
      kBytes /
      (median_ms([&] { read_kernel<<<blocks, 256>>>(data, kBytes / 16, 1, sink); }, 20) * 1e-3) /
      1e9;
  // A quarter of the L2 stays resident however the L2 is split; many passes, so one launch is
  // long against its own start.
  const std::size_t resident = std::max<std::size_t>(static_cast<std::size_t>(l2) / 4, 1 << 20);
  constexpr int kPasses = 64;
  measured.l2_gbps = static_cast<double>(resident) * kPasses /
                     (median_ms([&] {
                        read_kernel<<<blocks, 256>>>(data, resident / 16, kPasses, sink);
                      }, 10) *
                      1e-3) /
                     1e9;
  cudaGetLastError();
  cudaFree(from);
  cudaFree(to);
  cudaFree(sink);
  return measured;
}

}  // namespace kb
