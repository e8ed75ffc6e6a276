// The shared-memory tile kernel of seed 001 and seed 003 "3.0", shared by matmul/tiled and
// matmul/tiled_padded, which differ only in the row pitch of the tiles in shared memory.
#pragma once

#include <kbench/families/matmul.hpp>

namespace kb::matmul {

// The block is a square tile (blockDim.x == blockDim.y): each step copies a tile of A and a tile
// of B to shared memory, zero-filled past the edges of the matrices so the partial tiles of any
// M, N, K add nothing, then accumulates the tiles' product.
template <typename T>
__global__ void matmul_tiled(const T* a, const T* b, T* c, std::int64_t M, std::int64_t N,
                             std::int64_t K, unsigned pitch) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* a_tile = reinterpret_cast<T*>(shared_bytes);
  T* b_tile = a_tile + blockDim.y * pitch;
  const unsigned tile = blockDim.x, tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t i = blockIdx.y * std::int64_t{tile} + ty;
  const std::int64_t j = blockIdx.x * std::int64_t{tile} + tx;
  T sum = 0;
  for (std::int64_t k0 = 0; k0 < K; k0 += tile) {
    a_tile[ty * pitch + tx] = i < M && k0 + tx < K ? a[i * K + k0 + tx] : T(0);
    b_tile[ty * pitch + tx] = k0 + ty < K && j < N ? b[(k0 + ty) * N + j] : T(0);
    __syncthreads();
    for (unsigned k = 0; k < tile; ++k) sum += a_tile[ty * pitch + k] * b_tile[k * pitch + tx];
    __syncthreads();
  }
  if (i < M && j < N) c[i * N + j] = sum;
}

template <typename T>
void launch_tiled(const Operands<T>& p, Launcher& launch, unsigned pitch) {
  const unsigned tile = p.block.x;
  const dim3 grid((p.N + tile - 1) / tile, (p.M + tile - 1) / tile);
  launch(matmul_tiled<T>, grid, p.block, 2 * tile * pitch * sizeof(T), p.a(), p.b(), p.c(), p.M,
         p.N, p.K, pitch);
}

}  // namespace kb::matmul
