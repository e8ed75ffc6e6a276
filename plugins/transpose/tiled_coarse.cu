// The classic efficient transpose (M. Harris, "An Efficient Matrix Transpose in CUDA C/C++"):
// a padded 32x32 tile moved by a 32xY block, each thread moving 32/Y elements, so every thread
// has several independent loads in flight before it first waits. 32x8 is the classic; the other
// Y let a sweep show what the elements per thread buy.
#include <kbench/families/transpose.hpp>

namespace {

constexpr int kTile = 32;

template <typename T, int kRows>
__global__ void transpose_tiled_coarse(const T* __restrict__ in, T* __restrict__ out,
                                       std::int64_t rows, std::int64_t cols) {
  __shared__ T tile[kTile][kTile + 1];
  const std::int64_t r0 = blockIdx.y * std::int64_t{kTile};
  const std::int64_t c0 = blockIdx.x * std::int64_t{kTile};
  const int x = threadIdx.x;

#pragma unroll
  for (int k = 0; k < kTile / kRows; ++k) {
    const int y = threadIdx.y + k * kRows;
    if (r0 + y < rows && c0 + x < cols) tile[y][x] = in[(r0 + y) * cols + c0 + x];
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kTile / kRows; ++k) {
    const int y = threadIdx.y + k * kRows;
    if (c0 + y < cols && r0 + x < rows) out[(c0 + y) * rows + r0 + x] = tile[x][y];
  }
}

template <typename T>
struct TiledCoarse {
  // One unrolled kernel per block height accepts_32_wide_block lets through.
  static void launch(const kb::transpose::Problem<T>& p, kb::Launcher& launch) {
    switch (p.block.y) {
      case 1: return launch_rows<1>(p, launch);
      case 2: return launch_rows<2>(p, launch);
      case 4: return launch_rows<4>(p, launch);
      case 8: return launch_rows<8>(p, launch);
      case 16: return launch_rows<16>(p, launch);
      case 32: return launch_rows<32>(p, launch);
      default: throw kb::Error(KB_UNSUPPORTED, "tiled_coarse: block must be 32xY, Y = 2^k <= 32");
    }
  }

  template <int kRows>
  static void launch_rows(const kb::transpose::Problem<T>& p, kb::Launcher& launch) {
    const dim3 grid((p.cols + kTile - 1) / kTile, (p.rows + kTile - 1) / kTile);
    launch(transpose_tiled_coarse<T, kRows>, grid, p.block, 0, p.in(), p.out(), p.rows, p.cols);
  }
};

}  // namespace

KBENCH_PLUGIN(kb::transpose::Problem, TiledCoarse, kb::AllDTypes,
              {"transpose/tiled_coarse", "1",
               "padded 32x32 tile, 32xY threads moving 32/Y elements each (classic at 32x8)",
               KB_DEVICE_CUDA, 0, "",
               kb::transpose::accepts_32_wide_block})
