// One thread per element, the mirror of naive_row: consecutive threads walk down a column of the
// input, so the reads are strided and the writes coalesced. Seed 002's "per element" version.
#include <kbench/families/transpose.hpp>

namespace {

template <typename T>
__global__ void transpose_naive_col(const T* in, T* out, std::int64_t rows, std::int64_t cols) {
  const std::int64_t r = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  const std::int64_t c = blockIdx.y * std::int64_t{blockDim.y} + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

template <typename T>
struct NaiveCol {
  static void launch(const kb::transpose::Operands<T>& p, kb::Launcher& launch) {
    const dim3 grid((p.rows + p.block.x - 1) / p.block.x, (p.cols + p.block.y - 1) / p.block.y);
    launch(transpose_naive_col<T>, grid, p.block, 0, p.in(), p.out(), p.rows, p.cols);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::transpose::Operands, NaiveCol, kb::EveryDType,
                {.name = "transpose/naive_col",
                 .version = "1",
                 .description = "one thread per element; strided reads, coalesced writes (seed 002 "
                                "per element)",
                 .device = KB_DEVICE_CUDA,
                 .accepts = kb::transpose::accepts_any_2d_block})
