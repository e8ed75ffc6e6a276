#include "device/buffer_digest.hpp"

#include <kbench/support/error.hpp>
#include <kbench/support/parallel.hpp>
#include <kbench/support/random.hpp>

#include <algorithm>
#include <cstring>

namespace kb {
namespace {

// Each 8-byte word mixed with its position and summed: any changed word changes the sum but for
// a chance of 2^-64, and the sum needs no order, so blocks and host threads add freely.
KB_HOST_DEVICE std::uint64_t word_term(std::uint64_t word, std::uint64_t index) {
  return mix64(word ^ mix64(index + 0x5851F42D4C957F2Dull));
}

__global__ void digest_kernel(const unsigned char* bytes, std::uint64_t size,
                              unsigned long long* sum) {
  const std::uint64_t words = (size + 7) / 8;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  unsigned long long local = 0;
  for (std::uint64_t w = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; w < words;
       w += stride) {
    std::uint64_t word = 0;
    const std::uint64_t first = w * 8;
    if (first + 8 <= size && (reinterpret_cast<std::uintptr_t>(bytes) % 8) == 0) {
      word = reinterpret_cast<const std::uint64_t*>(bytes)[w];
    } else {
      for (std::uint64_t b = first; b < size && b < first + 8; ++b) {
        word |= std::uint64_t{bytes[b]} << (8 * (b - first));
      }
    }
    local += word_term(word, w);
  }
  for (int offset = 16; offset > 0; offset /= 2) local += __shfl_down_sync(0xFFFFFFFFu, local, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, local);
}

}  // namespace

std::uint64_t buffer_digest(const kb_operand& operand, kb_device_kind where, cudaStream_t stream) {
  if (operand.data == nullptr || operand.bytes == 0) return 0;
  const auto* bytes = static_cast<const unsigned char*>(operand.data);
  if (where == KB_DEVICE_CUDA) {
    unsigned long long* sum = nullptr;
    KB_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&sum), sizeof *sum, stream));
    cudaMemsetAsync(sum, 0, sizeof *sum, stream);
    const std::uint64_t words = (operand.bytes + 7) / 8;
    const auto blocks = static_cast<unsigned>(std::min<std::uint64_t>((words + 255) / 256, 2048));
    digest_kernel<<<blocks, 256, 0, stream>>>(bytes, operand.bytes, sum);
    const cudaError_t launched = cudaGetLastError();
    unsigned long long host = 0;
    cudaMemcpyAsync(&host, sum, sizeof host, cudaMemcpyDeviceToHost, stream);
    const cudaError_t done = cudaStreamSynchronize(stream);
    cudaFreeAsync(sum, stream);
    KB_CUDA_CHECK(launched);
    KB_CUDA_CHECK(done);
    return host;
  }
  const std::uint64_t words = (operand.bytes + 7) / 8;
  const std::uint64_t size = operand.bytes;
  const auto partials = parallel_map(words, kHostGrain, [=](std::size_t begin, std::size_t end) {
    std::uint64_t local = 0;
    for (std::size_t w = begin; w < end; ++w) {
      std::uint64_t word = 0;
      const std::uint64_t first = w * 8;
      std::memcpy(&word, bytes + first, std::min<std::uint64_t>(8, size - first));
      local += word_term(word, w);
    }
    return local;
  });
  std::uint64_t sum = 0;
  for (const std::uint64_t p : partials) sum += p;
  return sum;
}

}  // namespace kb
