// matmul/naive with Kahan's compensated summation in the inner product (seed 003): the float32
// error no longer grows with K, at the price of four floating-point operations per step instead
// of one. Compare its max_rel_error with matmul/naive's at large K.
#include <kbench/families/matmul.hpp>

namespace {

template <typename T>
__global__ void matmul_naive_kahan(const T* a, const T* b, T* c, std::int64_t M, std::int64_t N,
                                   std::int64_t K) {
  const std::int64_t i = blockIdx.y * std::int64_t{blockDim.y} + threadIdx.y;
  const std::int64_t j = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  if (i >= M || j >= N) return;
  T sum = 0, compensation = 0;  // sum - compensation is the running total to twice the precision
  for (std::int64_t k = 0; k < K; ++k) {
    const T term = fma(a[i * K + k], b[k * N + j], -compensation);
    const T next = sum + term;
    compensation = (next - sum) - term;  // what the addition rounded away, with its sign flipped
    sum = next;
  }
  c[i * N + j] = sum;
}

template <typename T>
struct NaiveKahan {
  static void launch(const kb::matmul::Operands<T>& p, kb::Launcher& launch) {
    const dim3 grid((p.N + p.block.x - 1) / p.block.x, (p.M + p.block.y - 1) / p.block.y);
    launch(matmul_naive_kahan<T>, grid, p.block, 0, p.a(), p.b(), p.c(), p.M, p.N, p.K);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, NaiveKahan, kb::FloatDTypes,
                {.name = "matmul/naive_kahan",
                 .version = "1",
                 .description =
                     "matmul/naive with a Kahan-compensated inner product (seed 003 accuracy step)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT,
                 .accepts = kb::matmul::accepts_2d_block})
