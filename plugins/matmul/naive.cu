// One thread per entry of C on a 2D grid of 2D blocks: threads along x share a row of A and read
// consecutive entries of a row of B. Seed 001's "by block" partitioning, global memory only.
#include <kbench/families/matmul.hpp>

namespace {

template <typename T>
__global__ void matmul_naive(const T* a, const T* b, T* c, std::int64_t M, std::int64_t N,
                             std::int64_t K) {
  const std::int64_t i = blockIdx.y * std::int64_t{blockDim.y} + threadIdx.y;
  const std::int64_t j = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  if (i < M && j < N) c[i * N + j] = kb::matmul::row_times_column(a, b, N, K, i, j);
}

template <typename T>
struct Naive {
  static void launch(const kb::matmul::Operands<T>& p, kb::Launcher& launch) {
    const dim3 grid((p.N + p.block.x - 1) / p.block.x, (p.M + p.block.y - 1) / p.block.y);
    launch(matmul_naive<T>, grid, p.block, 0, p.a(), p.b(), p.c(), p.M, p.N, p.K);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, Naive, kb::FloatDTypes,
                {.name = "matmul/naive",
                 .version = "1",
                 .description =
                     "one thread per entry, 2D blocks tile C (seed 001 by block, seed 003 1.0)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT,
                 .accepts = kb::matmul::accepts_2d_block})
