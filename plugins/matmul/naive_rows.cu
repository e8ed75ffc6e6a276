// One thread per entry of C, the block taken as a flat count of threads walking C in row-major
// order: a warp reads one row of A (a broadcast) and consecutive entries of a row of B, and writes
// consecutive entries of C. Seed 001's "by row" partitioning.
#include <kbench/families/matmul.hpp>

namespace {

template <typename T>
__global__ void matmul_naive_rows(const T* a, const T* b, T* c, std::int64_t M, std::int64_t N,
                                  std::int64_t K) {
  const std::int64_t index =
      blockIdx.x * std::int64_t{kb::matmul::flat_block_size()} + kb::matmul::flat_thread_index();
  const std::int64_t i = index / N, j = index % N;
  if (i < M) c[index] = kb::matmul::row_times_column(a, b, N, K, i, j);
}

template <typename T>
struct NaiveRows {
  static void launch(const kb::matmul::Operands<T>& p, kb::Launcher& launch) {
    const std::int64_t threads = p.block.x * p.block.y * p.block.z;
    const dim3 grid((p.M * p.N + threads - 1) / threads);
    launch(matmul_naive_rows<T>, grid, p.block, 0, p.a(), p.b(), p.c(), p.M, p.N, p.K);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, NaiveRows, kb::FloatDTypes,
                {.name = "matmul/naive_rows",
                 .version = "1",
                 .description = "one thread per entry, x*y*z threads per block along the rows of C "
                                "(seed 001 by row)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT})
