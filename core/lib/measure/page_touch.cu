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
  if (seen == 0xFFFFFFFFu) *sink = seen;  // never: the reads must not be optimised away
}

}  // namespace

void touch_pages(const kb_buffers& buffers, cudaStream_t stream) {
  const kb_operand* sides[] = {buffers.inputs, buffers.outputs};
  const std::uint32_t counts[] = {buffers.input_count, buffers.output_count};
  for (int side = 0; side < 2; ++side) {
    for (std::uint32_t i = 0; i < counts[side]; ++i) {
      const kb_operand& o = sides[side][i];
      if (o.data == nullptr || o.bytes == 0) continue;
      read_each_page<<<64, 256, 0, stream>>>(static_cast<const unsigned char*>(o.data), o.bytes,
                                             nullptr);
      KB_CUDA_CHECK(cudaGetLastError());
    }
  }
  KB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace kb
