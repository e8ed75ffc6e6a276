// One thread per element: reads along a row (coalesced), writes down a column (strided).
// Seed 000's "global memory" version.
#include <kbench/families/transpose.hpp>

namespace {

template <typename T>
__global__ void transpose_naive_row(const T* in, T* out, std::int64_t rows, std::int64_t cols) {
  const std::int64_t c = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  const std::int64_t r = blockIdx.y * std::int64_t{blockDim.y} + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

template <typename T>
struct NaiveRow {
  static void launch(const kb::transpose::Operands<T>& p, kb::Launcher& launch) {
    const dim3 grid((p.cols + p.block.x - 1) / p.block.x, (p.rows + p.block.y - 1) / p.block.y);
    launch(transpose_naive_row<T>, grid, p.block, 0, p.in(), p.out(), p.rows, p.cols);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::transpose::Operands, NaiveRow, kb::EveryDType,
                {.name = "transpose/naive_row",
                 .version = "1",
                 .description =
                     "one thread per element; coalesced reads, strided writes (seed 000 global)",
                 .device = KB_DEVICE_CUDA,
                 .accepts = kb::transpose::accepts_any_2d_block})
