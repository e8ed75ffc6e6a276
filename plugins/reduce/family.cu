// The reduce family's referee: it allocates `in` (n elements) and `out` (one Result<T>), draws
// `in` on the device, and computes the reference there too, in twice float64 precision (or exactly,
// in int64, for integers), so a check at 2^28 costs a pass over the input, not a host loop. Every
// draw, timed or for a check, is of values whose sums are exact in any order (reduce.hpp), and
// every check holds the result to exactly the reference.
#include <kbench/families/reduce.hpp>
#include <kbench/support/generated.cuh>

#include <cmath>
#include <type_traits>

namespace kb::reduce {
namespace {

// Every draw: -1, 0 or +1 for floats, non-zero with probability `density`; integers in
// [kLow, kHigh].
template <typename T>
struct ExactlySummable {
  std::uint64_t seed;
  double density;
  KB_HOST_DEVICE T operator()(std::uint64_t i) const {
    if constexpr (std::is_integral_v<T>) {
      return random_value<T>(seed, kInputStream, i, kLow, kHigh);
    } else {
      const std::uint64_t bits = random_bits(seed, kInputStream, i);
      const double unit = static_cast<double>(bits >> 11) * 0x1.0p-53;
      const float value = unit >= density ? 0.0f : (bits & 1) ? 1.0f : -1.0f;
      return T(value);
    }
  }
};

// A near draw (KB_DRAW_NEAR): the last draw, with the elements at `near` moved one step, so the
// result always moves: +1 for a sum; away from zero for a sum of squares. Exact draws stay exact.
template <typename T, typename Base>
struct Bumped {
  Base base;
  NearPositions near;
  Op op;
  KB_HOST_DEVICE T operator()(std::uint64_t i) const {
    const T value = base(i);
    if (!near.contains(i)) return value;
    using Wide = std::conditional_t<std::is_integral_v<T>, long long,
                                    std::conditional_t<std::is_same_v<T, double>, double, float>>;
    const Wide x = static_cast<Wide>(value);
    const Wide step = op == Op::sum || x >= 0 ? Wide(1) : Wide(-1);
    return T(x + step);
  }
};

// A sum in twice float64 precision (Knuth's TwoSum), and the sum of magnitudes beside it.
struct DoubleDouble {
  double hi = 0, lo = 0, scale = 0;
  __device__ void add(double x, double x_error) {
    const double t = hi + x;
    const double z = t - hi;
    lo += (hi - (t - z)) + (x - z) + x_error;
    hi = t;
    scale += fabs(x);
  }
  __device__ void add(const DoubleDouble& other) {
    add(other.hi, other.lo);
    scale += other.scale - fabs(other.hi);
  }
};

struct IntegerSum {
  long long sum = 0;
  double scale = 0;
  __device__ void add(long long x) {
    sum += x;
    scale += static_cast<double>(x < 0 ? -x : x);
  }
  __device__ void add(const IntegerSum& other) {
    sum += other.sum;
    scale += other.scale;
  }
};

template <typename T>
using Accumulator = std::conditional_t<std::is_integral_v<T>, IntegerSum, DoubleDouble>;

template <typename T>
__device__ void accumulate(Accumulator<T>& acc, T x, Op op) {
  if constexpr (std::is_integral_v<T>) {
    const long long v = x;
    acc.add(op == Op::sumsq ? v * v : v);
  } else {
    const double v = static_cast<double>(static_cast<Result<T>>(x));
    if (op == Op::sum) {
      acc.add(v, 0.0);
    } else {
      const double square = v * v;
      acc.add(square, fma(v, v, -square));  // the square's rounding error, exactly
    }
  }
}

constexpr unsigned kThreads = 256;

template <typename T>
__device__ void block_combine(Accumulator<T>& acc, Accumulator<T>* shared) {
  shared[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) shared[threadIdx.x].add(shared[threadIdx.x + half]);
    __syncthreads();
  }
  acc = shared[0];
}

template <typename T>
__global__ void partial_references(const T* in, std::int64_t n, Op op, Accumulator<T>* partials) {
  __shared__ Accumulator<T> shared[kThreads];
  Accumulator<T> acc;
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
    accumulate(acc, in[i], op);
  }
  block_combine<T>(acc, shared);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

template <typename T>
__global__ void final_reference(const Accumulator<T>* partials, unsigned count,
                                Accumulator<T>* total) {
  __shared__ Accumulator<T> shared[kThreads];
  Accumulator<T> acc;
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) acc.add(partials[i]);
  block_combine<T>(acc, shared);
  if (threadIdx.x == 0) *total = acc;
}

template <typename T>
Reference device_reference(const Array<T>& in, Op op, cudaStream_t stream) {
  constexpr unsigned kBlocks = 1024;
  Array<Accumulator<T>> partials(KB_DEVICE_CUDA, kBlocks + 1);
  partial_references<T><<<kBlocks, kThreads, 0, stream>>>(in.data(), static_cast<std::int64_t>(in.size()),
                                                         op, partials.data());
  final_reference<T><<<1, kThreads, 0, stream>>>(partials.data(), kBlocks,
                                                 partials.data() + kBlocks);
  KB_CUDA_CHECK(cudaGetLastError());
  Accumulator<T> total;
  KB_CUDA_CHECK(cudaMemcpyAsync(&total, partials.data() + kBlocks, sizeof total,
                                cudaMemcpyDeviceToHost, stream));
  KB_CUDA_CHECK(cudaStreamSynchronize(stream));
  if constexpr (std::is_integral_v<T>) {
    return {static_cast<long double>(total.sum), static_cast<long double>(total.scale)};
  } else {
    return {static_cast<long double>(total.hi) + static_cast<long double>(total.lo),
            static_cast<long double>(total.scale)};
  }
}

template <typename T>
class Referee {
 public:
  using Out = Result<T>;

  static kb_work work(const kb_case& c) {
    const auto n = static_cast<double>(c.shape[0]);
    return kb_work{n * sizeof(T) + sizeof(Out), n * (parse_op(c.op) == Op::sumsq ? 2.0 : 1.0)};
  }

  Referee(const kb_case& c, kb_device_kind where)
      : n_(c.shape[0]), op_(parse_op(c.op)), in_(where, static_cast<std::size_t>(n_)),
        out_(where, 1) {}

  kb_buffers buffers() const {
    kb_buffers b{};
    b.input_count = 1;
    b.inputs[0] = operand_of(in_);
    b.output_count = 1;
    b.outputs[0] = operand_of(out_);
    return b;
  }

  // Timed and check draws alike: values whose sums are exact in any order (reduce.hpp), so every
  // checked launch, timed or not, must be exact, and no strategy can tell a draw it will be judged
  // on strictly from one it will not. A near draw changes a few elements of the last one.
  void draw(std::uint64_t seed, std::uint32_t purpose, cudaStream_t stream) {
    if (purpose == KB_DRAW_NEAR) {
      const NearPositions near = NearPositions::of(seed, static_cast<std::uint64_t>(n_));
      fill_generated(in_, Bumped<T, ExactlySummable<T>>{exact_values(), near, op_}, stream);
    } else {
      seed_ = seed;
      fill_generated(in_, exact_values(), stream);
    }
    expected_ = in_.where() == KB_DEVICE_CUDA ? device_reference(in_, op_, stream)
                                              : reference(in_.data(), n_, op_);
  }

  // Floats: NaN (0xFF bytes). int64: 0xFF bytes would be -1, a possible sum; 0x80 bytes is
  // -9.2e18, which no sum of |x| <= 100 reaches.
  void poison(cudaStream_t stream) {
    const int byte = std::is_integral_v<T> ? 0x80 : 0xFF;
    if (out_.where() == KB_DEVICE_CUDA) {
      KB_CUDA_CHECK(cudaMemsetAsync(out_.data(), byte, sizeof(Out), stream));
    } else {
      std::memset(out_.data(), byte, sizeof(Out));
    }
  }

  // Exact: every draw sums exactly in any order, integers and floats alike.
  kb_verification check(std::uint32_t, cudaStream_t stream) const {
    Out got{};
    if (out_.where() == KB_DEVICE_CUDA) {
      KB_CUDA_CHECK(cudaMemcpyAsync(&got, out_.data(), sizeof got, cudaMemcpyDeviceToHost, stream));
      KB_CUDA_CHECK(cudaStreamSynchronize(stream));
    } else {
      got = out_.data()[0];
    }
    const double depth = static_cast<double>(n_ - 1);
    return reduce::check(static_cast<long double>(got), expected_, 0.0, depth);
  }

 private:
  ExactlySummable<T> exact_values() const {
    return ExactlySummable<T>{seed_, std::min(kExactDensity, kExactNonZeros / n_)};
  }

  std::int64_t n_;
  Op op_;
  std::uint64_t seed_ = 0;  // of the last timed or check draw
  Array<T> in_;
  Array<Out> out_;
  Reference expected_{};
};

int accepts(const kb_case* c, kb_message* why) {
  if (c->shape[0] < 1) {
    std::snprintf(why->text, sizeof why->text, "reduce needs at least one element");
    return 0;
  }
  return 1;
}

}  // namespace
}  // namespace kb::reduce

KBENCH_FAMILY(kb::reduce::Referee, kb::reduce::DTypesOfAnySize,
              {.info = kb::reduce::descriptor(),
               .version = "5",
               .ops = kb::reduce::kOps,
               .accepts = kb::reduce::accepts})
