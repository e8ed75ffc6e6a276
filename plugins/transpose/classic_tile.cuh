// The classic efficient transpose (M. Harris, "An Efficient Matrix Transpose in CUDA C/C++"): a
// padded 32x32 tile moved by a 32xY block, each thread moving 32/Y elements, so every thread has
// several independent loads in flight before it first waits. transpose/tiled_coarse sweeps Y;
// transpose/fast takes it at 32x8 where it beats the 16-byte chunk tiles (see fast.cu).
#pragma once

#include <kbench/families/transpose.hpp>

namespace {

constexpr int kClassicTile = 32;

template <typename T, int kRows>
__global__ void transpose_classic(const T* __restrict__ in, T* __restrict__ out,
                                  std::int64_t rows, std::int64_t cols) {
  __shared__ T tile[kClassicTile][kClassicTile + 1];
  const std::int64_t r0 = blockIdx.y * std::int64_t{kClassicTile};
  const std::int64_t c0 = blockIdx.x * std::int64_t{kClassicTile};
  const int x = threadIdx.x;

#pragma unroll
  for (int k = 0; k < kClassicTile / kRows; ++k) {
    const int y = threadIdx.y + k * kRows;
    if (r0 + y < rows && c0 + x < cols) tile[y][x] = in[(r0 + y) * cols + c0 + x];
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kClassicTile / kRows; ++k) {
    const int y = threadIdx.y + k * kRows;
    if (c0 + y < cols && r0 + x < rows) out[(c0 + y) * rows + r0 + x] = tile[x][y];
  }
}

// The grid is 2D, one block per tile: at most 65535 bands of 32 rows. The plugins refuse taller
// matrices at set-up (tiled_coarse by its acceptance rule, fast in its constructor).
constexpr std::int64_t kClassicMaxRows = std::int64_t{65535} * kClassicTile;

// One launch of the 32 x kRows block over the whole matrix.
template <int kRows, typename T>
void launch_classic(const kb::transpose::Operands<T>& p, kb::Launcher& launch) {
  const dim3 grid(static_cast<unsigned>((p.cols + kClassicTile - 1) / kClassicTile),
                  static_cast<unsigned>((p.rows + kClassicTile - 1) / kClassicTile));
  launch(transpose_classic<T, kRows>, grid, dim3(kClassicTile, kRows), 0, p.in(), p.out(), p.rows,
         p.cols);
}

}  // namespace
