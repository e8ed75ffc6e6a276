// The shared-memory tile transpose of seeds 000, 002 and 004: a block loads a square tile of the
// input along its rows, and writes the transposed tile along the rows of the output, so both
// global accesses can be coalesced. Two template parameters carry the lessons the seeds draw from
// it, one plugin each:
//   kPad      0: the tile is read down its columns, every thread of a warp in the same bank
//                (shared, seeds 002/004); 1: one extra column spreads them (shared_padded, seed 000).
//   kSwapped  threadIdx.y, not threadIdx.x, walks along memory (shared_swapped_index, seed 000's
//             last experiment): the shared accesses are still conflict-free but neither global
//             access is coalesced any more.
#pragma once

#include <kbench/families/transpose.hpp>

namespace kb::transpose {

template <typename T, int kPad, bool kSwapped>
__global__ void transpose_shared_tile(const T* in, T* out, std::int64_t rows, std::int64_t cols) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* tile = reinterpret_cast<T*>(shared_bytes);
  const int side = blockDim.x;  // the tile is the (square) block
  const int pitch = side + kPad;
  const int along = kSwapped ? threadIdx.y : threadIdx.x;  // consecutive along a row of memory
  const int across = kSwapped ? threadIdx.x : threadIdx.y;
  const std::int64_t r0 = blockIdx.y * std::int64_t{side};
  const std::int64_t c0 = blockIdx.x * std::int64_t{side};

  if (r0 + across < rows && c0 + along < cols) {
    tile[across * pitch + along] = in[(r0 + across) * cols + c0 + along];
  }
  __syncthreads();
  if (c0 + across < cols && r0 + along < rows) {
    out[(c0 + across) * rows + r0 + along] = tile[along * pitch + across];
  }
}

template <typename T, int kPad, bool kSwapped>
void launch_shared_tile(const Operands<T>& p, Launcher& launch) {
  const unsigned side = p.block.x;
  const dim3 grid((p.cols + side - 1) / side, (p.rows + side - 1) / side);
  const std::size_t shared_bytes = std::size_t{side} * (side + kPad) * sizeof(T);
  launch(transpose_shared_tile<T, kPad, kSwapped>, grid, p.block, shared_bytes, p.in(), p.out(),
         p.rows, p.cols);
}

}  // namespace kb::transpose
