// A block per row of C (seed 003 "2.0"): the row of A is read from global memory once into shared
// memory, then the block's threads (the case's block as a flat count) stride across the row of C.
// B is still read M times. The seed sums with Kahan here; this plugin sums plainly, so that
// against matmul/naive it shows the memory effect alone.
#include <kbench/families/matmul.hpp>

namespace {

template <typename T>
__global__ void matmul_row_shared(const T* a, const T* b, T* c, std::int64_t N, std::int64_t K) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* row = reinterpret_cast<T*>(shared_bytes);
  const std::int64_t i = blockIdx.x;
  const unsigned first = kb::matmul::flat_thread_index(), stride = kb::matmul::flat_block_size();
  for (std::int64_t k = first; k < K; k += stride) row[k] = a[i * K + k];
  __syncthreads();
  for (std::int64_t j = first; j < N; j += stride) {
    T sum = 0;
    for (std::int64_t k = 0; k < K; ++k) sum += row[k] * b[k * N + j];
    c[i * N + j] = sum;
  }
}

template <typename T>
struct RowShared {
  static void launch(const kb::matmul::Operands<T>& p, kb::Launcher& launch) {
    launch(matmul_row_shared<T>, dim3(p.M), p.block, p.K * sizeof(T), p.a(), p.b(), p.c(), p.N,
           p.K);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, RowShared, kb::FloatDTypes,
                {.name = "matmul/row_shared",
                 .version = "1",
                 .description =
                     "a block per row of C, the row of A in shared memory (seed 003 2.0)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT,
                 .accepts = kb::matmul::accepts_row_in_shared})
