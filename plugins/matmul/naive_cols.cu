// One thread per entry of C, the block taken as a flat count of threads walking C in column-major
// order: a warp reads 32 rows of A at a stride of K (32 transactions per step) and one entry of B
// (a broadcast), and writes C at a stride of N. Seed 001's "by column" partitioning, its slowest.
#include <kbench/families/matmul.hpp>

namespace {

template <typename T>
__global__ void matmul_naive_cols(const T* a, const T* b, T* c, std::int64_t M, std::int64_t N,
                                  std::int64_t K) {
  const std::int64_t index =
      blockIdx.x * std::int64_t{kb::matmul::flat_block_size()} + kb::matmul::flat_thread_index();
  const std::int64_t j = index / M, i = index % M;
  if (j < N) c[i * N + j] = kb::matmul::row_times_column(a, b, N, K, i, j);
}

template <typename T>
struct NaiveCols {
  static void launch(const kb::matmul::Operands<T>& p, kb::Launcher& launch) {
    const std::int64_t threads = p.block.x * p.block.y * p.block.z;
    const dim3 grid((p.M * p.N + threads - 1) / threads);
    launch(matmul_naive_cols<T>, grid, p.block, 0, p.a(), p.b(), p.c(), p.M, p.N, p.K);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, NaiveCols, kb::FloatDTypes,
                {.name = "matmul/naive_cols",
                 .version = "1",
                 .description = "one thread per entry, x*y*z threads per block down the columns of "
                                "C (seed 001 by column)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT})
