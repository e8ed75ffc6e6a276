#include "measure/page_touch.hpp"

#include <kbench/support/error.hpp>

#include <cstdint>

namespace kb {
namespace {

// The smallest page a device allocation is mapped with.
constexpr std::uint64_t kPageBytes = 64 << 10;

__global__ void read_each_page(const unsigned char* bytes, std::uint64_t size, unsigned* sink) {
  unsigned seen = 0;
  for (std::uint64_t page = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
       page * kPageBytes < size; page += std::uint64_t{gridDim.x} * blockDim.x) {
    seen += static_cast<const volatile unsigned char*>(bytes)[page * kPageBytes];
  }
  if (seen == 0x9E3779B9u) *sink = seen;  // the reads must not be optimised away
}

__global__ void read_all(const unsigned char* bytes, std::uint64_t size, unsigned* sink) {
  unsigned seen = 0;
  const std::uint64_t words = size / 16;
  const auto* wide = reinterpret_cast<const uint4*>(bytes);
  for (std::uint64_t w = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; w < words;
       w += std::uint64_t{gridDim.x} * blockDim.x) {
    const uint4 v = wide[w];
    seen ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  for (std::uint64_t b = words * 16 + threadIdx.x; blockIdx.x == 0 && b < size; b += blockDim.x) {
    seen ^= bytes[b];
  }
  if (seen == 0x9E3779B9u) *sink = seen;  // the reads must not be optimised away
}

}  // namespace

void touch_pages(const kb_buffers& buffers, cudaStream_t stream) {
  unsigned* sink = nullptr;  // never written unless by chance, when it is a scratch word
  KB_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&sink), sizeof *sink, stream));
  for (std::uint32_t i = 0; i < buffers.input_count; ++i) {
    const kb_operand& o = buffers.inputs[i];
    if (o.data == nullptr || o.bytes == 0) continue;
    read_all<<<1024, 256, 0, stream>>>(static_cast<const unsigned char*>(o.data), o.bytes, sink);
    KB_CUDA_CHECK(cudaGetLastError());
  }
  for (std::uint32_t i = 0; i < buffers.output_count; ++i) {
    const kb_operand& o = buffers.outputs[i];
    if (o.data == nullptr || o.bytes == 0) continue;
    read_each_page<<<64, 256, 0, stream>>>(static_cast<const unsigned char*>(o.data), o.bytes, sink);
    KB_CUDA_CHECK(cudaGetLastError());
  }
  KB_CUDA_CHECK(cudaFreeAsync(sink, stream));
  KB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace kb
