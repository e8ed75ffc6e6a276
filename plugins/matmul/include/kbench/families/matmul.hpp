// The matmul family: C (M x N) = A (M x K) * B (K x N), all row-major and densely packed.
// float32 and float64 multiply into C of their type, bfloat16 and float16 (the tensor-core
// plugins of those types and their cuBLAS baselines) into a float32 C. Shape {M, N, K}; the block
// shape is the strategy's to interpret (threads per block in x and y, or a tile). Inputs are
// uniform in [-1, 1). Rounding makes the output inexact, so it is compared with a float64
// reference under a tolerance that follows K and the precision the product was computed in (see
// docs/families/matmul.md and tolerance() below).
#pragma once

#include <kbench/plugin.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace kb::matmul {

// The family as the runner sees it (kb_family): held against cuBLAS at the data type's precision.
inline const kb_family* descriptor() {
  static constexpr kb_family kFamily = {
      .name = "matmul",
      .rank = 3,
      .shape_names = "M,N,K",
      .default_sizes = "1024,4096",
      .default_blocks = "16x16",
      .default_dtypes = "float32",
      .check_sizes = "33x65x17",
      .check_blocks = "16x16,256,32x32",
      .headline = "gflops",
      .reference = "matmul/cublas"};
  return &kFamily;
}

// The precision the product is computed in. tf32 and bf16 mean: inputs rounded to that format,
// products accumulated in float32 (the tensor-core contract).
enum class Precision { fp64, fp32, tf32, bf16, fp16 };

const char* name_of(Precision p);

// What C holds: bfloat16 and float16 inputs multiply into a float32 C (the tensor cores'
// contract); float32 and float64 inputs into their own type.
template <typename T>
using Product = std::conditional_t<sizeof(T) == 2, float, T>;

// The data types of the plugins that multiply on the BF16 tensor cores: bfloat16 inputs as they
// are, float32 ones rounded to bfloat16.
using Bf16TensorDTypes = DTypes<float, __nv_bfloat16>;

// bfloat16 and float16 inputs are exact: each product of two (8 or 11 significant bits each) is
// exact in float32, so only the float32 accumulation rounds.
template <typename T>
constexpr Precision precision_of() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __half>,
                "matmul is float, double, bfloat16 or float16");
  return std::is_same_v<T, double> ? Precision::fp64 : Precision::fp32;
}

// The error of one entry is |c_ij - exact_ij| / sum_k |a_ik * b_kj|: the scale of the rounding
// errors an inner product can make, so it stays meaningful when c_ij itself cancels to near 0.
// The tolerance is 2 u_in + lambda sqrt(K + 2) u_acc: the deterministic bound for rounding the
// inputs to the compute format (u_in, 0 for fp32/fp64), plus the probabilistic bound of Higham and
// Mary (SIAM J. Sci. Comput. 41(5), 2019, Thm 3.1) for K products, K - 1 additions and the final
// store, with lambda = 8 (fails a correct entry with probability below 2K e^-32).
double tolerance(Precision computed_in, std::int64_t K);

// Entries of C the sampling verifier checks (sorted by column, then row, no duplicates): `count`
// seeded random entries plus every entry of the last row and of the last column, where the
// guarded edge tiles of a blocked kernel are.
std::vector<std::pair<std::int64_t, std::int64_t>> sampled_entries(std::int64_t M, std::int64_t N,
                                                                   std::size_t count,
                                                                   std::uint64_t seed);

// Problems up to this many multiply-adds are checked entry by entry; larger ones by sample.
constexpr double kFullCheckLimit = 134217728.0;  // 2^27
constexpr std::size_t kSampleCount = 4096;

// Checks C (host memory) against the float64 reference (compensated, so the reference error is far
// below every tolerance, float64 included). Every entry when M*N*K <= kFullCheckLimit, otherwise
// sampled_entries(M, N, kSampleCount, seed).
template <typename T>
kb_verification verify_product(const T* a, const T* b, const Product<T>* c, std::int64_t M,
                               std::int64_t N, std::int64_t K, Precision computed_in,
                               std::uint64_t seed);

// What a strategy computes on: inputs[0] is A (M x K), inputs[1] is B (K x N), both of T;
// outputs[0] is C (M x N) of Product<T>. All row-major and densely packed.
template <typename T>
class Operands {
 public:
  Operands(const kb_case& c, const kb_buffers& b)
      : M(c.shape[0]),
        N(c.shape[1]),
        K(c.shape[2]),
        block(static_cast<unsigned>(c.block[0]), static_cast<unsigned>(c.block[1]),
              static_cast<unsigned>(c.block[2] > 0 ? c.block[2] : 1)),
        a_(static_cast<const T*>(b.inputs[0].data)),
        b_(static_cast<const T*>(b.inputs[1].data)),
        c_(static_cast<Product<T>*>(b.outputs[0].data)) {}

  const std::int64_t M, N, K;
  const dim3 block;  // from the case; {0,0,1} for plugins that choose their own

  const T* a() const noexcept { return a_; }
  const T* b() const noexcept { return b_; }
  Product<T>* c() const noexcept { return c_; }

 private:
  const T* a_;
  const T* b_;
  Product<T>* c_;
};

// Inputs: uniform in [-1, 1), A from stream 1, B from stream 2 of the draw's seed.
constexpr std::uint64_t kStreamA = 1, kStreamB = 2;

// The precision a strategy's product is held to, from the data type and the math it declares
// (KB_FLAG_MATH_*): float32 inputs on TF32, BF16 or FP16 tensor cores are rounded to that format;
// 16-bit inputs are exact, their products accumulated in float32.
Precision precision_for(kb_dtype dtype, std::uint32_t strategy_flags);

// Acceptance rules the strategies share.
int accepts_2d_block(const kb_case* c, kb_message* why);       // block.x * block.y threads, any shape
int accepts_square_block(const kb_case* c, kb_message* why);   // tile = block.x = block.y <= 32
int accepts_row_in_shared(const kb_case* c, kb_message* why);  // K values of T fit in 48 KB
int accepts_host_size(const kb_case* c, kb_message* why);      // M*N*K <= 2^31 multiply-adds

#if defined(__CUDACC__)
// Row i of A times column j of B, summed in T in the order k = 0, 1, ..., K-1.
template <typename T>
__device__ T row_times_column(const T* a, const T* b, std::int64_t N, std::int64_t K,
                              std::int64_t i, std::int64_t j) {
  T sum = 0;
  for (std::int64_t k = 0; k < K; ++k) sum += a[i * K + k] * b[k * N + j];
  return sum;
}

// The thread's index among all threads of its block, for strategies that take the case's block as
// a flat count of threads.
__device__ inline unsigned flat_thread_index() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
__device__ inline unsigned flat_block_size() { return blockDim.x * blockDim.y * blockDim.z; }
#endif

}  // namespace kb::matmul
