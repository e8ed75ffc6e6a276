#include "measure/l2_flush.hpp"

#include <kbench/support/error.hpp>

#include <algorithm>

namespace kb {

L2Flush::L2Flush(int device) : size_(bytes(device)) { KB_CUDA_CHECK(cudaMalloc(&buffer_, size_)); }

L2Flush::~L2Flush() { cudaFree(buffer_); }

std::size_t L2Flush::bytes(int device) {
  int l2 = 0;
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
  return std::max<std::size_t>(2 * static_cast<std::size_t>(l2), std::size_t{64} << 20);
}

void L2Flush::flush(cudaStream_t stream) {
  // A persisting line survives the flush's writes: evict the strategy's persisting set-aside first.
  KB_CUDA_CHECK(cudaStreamSynchronize(stream));
  cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
  cudaCtxResetPersistingL2Cache();
  cudaGetLastError();  // a device without persisting L2 refuses both; the flush still happens
  // A new value each time, so no write is skipped as already done.
  KB_CUDA_CHECK(cudaMemsetAsync(buffer_, ++value_, size_, stream));
}

}  // namespace kb
