// The reduce family: one number from n, their sum or their sum of squares (seed 003).
// Shape {n}; block = threads per block (x only), {0,0,0} for plugins that choose their own launch;
// op = kb_case.op, "sum" or "sumsq" (every plugin lists both). int32 is accumulated and returned
// in int64, so it is exact and cannot overflow (2^28 squares of |x| <= 100 need 42 bits; int8
// likewise); float16 and bfloat16 are accumulated in float32; float32
// and float64 are accumulated as each strategy does and checked against a compensated long double
// reference under a tolerance that grows with the strategy's summation depth (tolerance() below,
// docs/families/reduce.md).
#pragma once

#include <kbench/plugin.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace kb::reduce {

// The family as the runner sees it (kb_family): held against CUB.
inline const kb_family* descriptor() {
  static constexpr kb_family kFamily = {
      .name = "reduce",
      .rank = 1,
      .shape_names = "n",
      .default_sizes = "2^20,2^28",
      .default_blocks = "256",
      .default_dtypes = "float32,int32",
      .check_sizes = "1000",
      .check_blocks = "256,32x8",
      .headline = "gbps",
      .reference = "reduce/cub"};
  return &kFamily;
}

enum class Op { sum, sumsq };

inline constexpr const char* kOps = "sum,sumsq";  // KernelPlugin.ops of every reduce plugin

// "sum" or "sumsq"; anything else throws KB_UNSUPPORTED.
Op parse_op(const char* text);

// What a strategy accumulates in and writes: int64 for integer inputs (int32, int8), float for
// float16 and bfloat16 (their own precision would stagnate after a few hundred terms), T
// otherwise.
template <typename T>
using Result = std::conditional_t<std::is_integral_v<T>, std::int64_t,
                                  std::conditional_t<std::is_floating_point_v<T>, T, float>>;

// The data types a reduce plugin whose kernel only reads T and accumulates in Result<T> takes.
using DTypesOfAnySize = DTypes<float, double, std::int32_t, __half, __nv_bfloat16, std::int8_t>;

// The term element x adds, already converted to the accumulator type. The op is a kernel
// argument, not a template parameter: the branch is uniform over the grid and costs nothing a
// memory-bound loop would notice.
template <typename A>
__host__ __device__ inline A term(Op op, A x) {
  return op == Op::sumsq ? x * x : x;
}

__host__ __device__ constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// Levels of a binary tree over n leaves.
constexpr int ceil_log2(std::int64_t n) {
  int levels = 0;
  while ((std::int64_t{1} << levels) < n) ++levels;
  return levels;
}

// The value a correct reduction approximates (int32: exactly), and the scale its error is measured
// against: sum |term(x_i)|, which stays meaningful when a signed sum cancels to near zero.
struct Reference {
  long double value;
  long double scale;
};

// Compensated (Knuth's TwoSum) in long double: its error is far below every float64 tolerance.
template <typename T>
Reference reference(const T* x, std::int64_t n, Op op);

// The bound a float result is held to, relative to Reference::scale. `depth` is the largest
// number of additions in T that any one term passes through on its way to the result (n for a
// serial loop, n/threads + the levels of the trees after it for a parallel one). Higham
// (Accuracy and Stability of Numerical Algorithms, 2nd ed., eq. 4.4) bounds any summation order
// by depth * u * scale to first order. The tolerance is 2 u (depth + 2): the +2 for rounding the
// square and the result, the factor 2 for the second-order terms and a miscounted level; capped
// at 1, where the check only asks for a finite result of the right size. This is the
// deterministic bound, not the probabilistic sqrt(depth) one: a long float32 chain of positive
// squares stagnates and all its errors share a sign (seed 003's one thread, float32 sumsq of 10^7:
// 1e-2). 0 (exact) for int32.
template <typename T>
double tolerance(double depth) {
  if constexpr (std::is_integral_v<T>) {
    return 0.0;
  } else {
    // The inputs are exact in the reference; only the accumulation rounds.
    const double u = std::numeric_limits<Result<T>>::epsilon() / 2;
    const double bound = 2.0 * u * (depth + 2.0);
    return bound < 1.0 ? bound : 1.0;
  }
}

// |got - value| / scale against the tolerance (0: got must equal value). NaN and infinities fail.
kb_verification check(long double got, const Reference& expected, double tolerance, double depth);

// What a strategy computes on: inputs[0] is `in` (n elements of T), outputs[0] is `out` (one
// Result<T>).
template <typename T>
class Operands {
 public:
  using Out = Result<T>;

  Operands(const kb_case& c, const kb_buffers& b)
      : n(c.shape[0]),
        op(parse_op(c.op)),
        block(static_cast<unsigned>(c.block[0])),
        in_(static_cast<const T*>(b.inputs[0].data)),
        out_(static_cast<Out*>(b.outputs[0].data)) {}

  const std::int64_t n;
  const Op op;
  const unsigned block;  // threads per block; 0 for plugins that choose their own

  const T* in() const noexcept { return in_; }
  Out* out() const noexcept { return out_; }

 private:
  const T* in_;
  Out* out_;
};

// The inputs the family draws, for timing and for its checks alike: integers in [kLow, kHigh];
// floats -1, 0 or +1 (both signs, so a signed sum cancels), with at most about 2^22 of them
// non-zero, so every partial sum in any order is an integer that float32 holds exactly: the result
// must be exact, and any element a launch skips shows. At most half of them non-zero at any n, so
// that no result is known without reading: were every element +1 or -1, the sum of squares would
// be n whatever the seed. (Timed inputs drawn otherwise, uniform in [-1, 1), could be told from
// the checks' by reading a few elements, and a float32 sum of n terms in any order is only held to
// 2u(n+1) of sum |x|: a strategy could estimate on them and sum honestly on the checks' inputs.)
constexpr std::uint64_t kInputStream = 1;
constexpr std::int64_t kLow = -100, kHigh = 100;
constexpr double kExactNonZeros = 4194304.0;  // 2^22
constexpr double kExactDensity = 0.5;

// Acceptance rules the strategies share (all ask for a 1D block).
int accepts_1d_block(const kb_case* c, kb_message* why);             // any threads per block
int accepts_power_of_two_block(const kb_case* c, kb_message* why);   // shared-memory trees
int accepts_warp_multiple_block(const kb_case* c, kb_message* why);  // whole warps (shuffles)

// Depth of a grid-stride walk by grid x block threads, then a block reduction of `levels` levels,
// then the last block adding the grid's block totals (ceil(grid / block) each) and reducing again.
inline double last_block_depth(std::int64_t n, unsigned grid, unsigned block, int levels) {
  return static_cast<double>(ceil_div(n, std::int64_t{grid} * block) + ceil_div(grid, block) +
                             2 * levels);
}

}  // namespace kb::reduce
