// The matmul family's referee: it allocates A, B and C, draws A and B on the device, and checks C
// on the device too: each checked entry recomputed in twice float64 precision (Ogita, Rump and
// Oishi's Dot2) by one warp, beside the entry itself and sum_k |a_ik b_kj|, so only three numbers
// per entry come back. Every entry while M*N*K <= 2^27; above, 4096 entries at positions drawn
// afresh for each check (no strategy can know them) plus the last row and column, where a blocked
// kernel's guarded edge tiles are; after a near draw (KB_DRAW_NEAR), every entry of the row it
// changed as well. The tolerance follows K and the precision the strategy declares (matmul.hpp).
#include <kbench/families/matmul.hpp>
#include <kbench/support/generated.cuh>

#include <random>

namespace kb::matmul {
namespace {

struct Entry {
  std::int64_t i, j;
};

// Every entry of a small product (a few million entries at most), a sample of a large one.
bool full_check(std::int64_t M, std::int64_t N, std::int64_t K) {
  const double entries = static_cast<double>(M) * static_cast<double>(N);
  return entries * static_cast<double>(K) <= kFullCheckLimit && entries <= 4194304.0;
}

template <typename T>
__device__ double as_double(T x) {
  return static_cast<double>(static_cast<float>(x));
}
template <>
__device__ double as_double<double>(double x) {
  return x;
}

// One warp per entry: got, exact and sum |a b| of entries[e].
template <typename T>
__global__ void entry_references(const T* a, const T* b, const Product<T>* c, std::int64_t N,
                                 std::int64_t K, const Entry* entries, std::uint64_t count,
                                 double* got, double* exact, double* magnitude) {
  const std::uint64_t e = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  if (e >= count) return;
  const Entry entry = entries[e];
  double hi = 0, lo = 0, absolute = 0;
  for (std::int64_t k = lane; k < K; k += 32) {
    const double x = as_double(a[entry.i * K + k]), y = as_double(b[k * N + entry.j]);
    const double product = x * y;
    const double product_error = fma(x, y, -product);  // exact for float inputs: 0
    const double t = hi + product;
    const double z = t - hi;
    lo += (hi - (t - z)) + (product - z) + product_error;
    hi = t;
    absolute += fabs(product);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    const double other_hi = __shfl_down_sync(0xFFFFFFFFu, hi, offset);
    const double other_lo = __shfl_down_sync(0xFFFFFFFFu, lo, offset);
    absolute += __shfl_down_sync(0xFFFFFFFFu, absolute, offset);
    const double t = hi + other_hi;
    const double z = t - hi;
    lo += (hi - (t - z)) + (other_hi - z) + other_lo;
    hi = t;
  }
  if (lane == 0) {
    got[e] = static_cast<double>(c[entry.i * N + entry.j]);
    exact[e] = hi + lo;
    magnitude[e] = absolute;
  }
}

// A near draw (KB_DRAW_NEAR): A of the last draw with a few elements of one row, `row`, set to
// +-scale, a power of two (exact in every input type) as large as K, so every entry of that row of
// C moves by far more than any tolerance; B as it was.
struct NearRow {
  std::int64_t row = -1;  // -1: not a near draw
  NearPositions columns{};
  float scale = 0;
  std::uint64_t signs = 0;

  static NearRow of(std::uint64_t seed, std::int64_t M, std::int64_t K) {
    NearRow near;
    near.row = static_cast<std::int64_t>(random_bits(seed, kNearStream, 1000) %
                                         static_cast<std::uint64_t>(M));
    near.columns = NearPositions::of(seed, static_cast<std::uint64_t>(K));
    near.scale = 1.0f;
    while (near.scale < static_cast<float>(K) && near.scale < 32768.0f) near.scale *= 2.0f;
    near.signs = random_bits(seed, kNearStream, 1001);
    return near;
  }
};

template <typename T>
struct NearA {
  RandomValues<T> values;
  NearRow near;
  std::int64_t K;
  KB_HOST_DEVICE T operator()(std::uint64_t index) const {
    const auto i = static_cast<std::int64_t>(index / static_cast<std::uint64_t>(K));
    const std::uint64_t k = index % static_cast<std::uint64_t>(K);
    if (i != near.row || !near.columns.contains(k)) return values(index);
    return T(((near.signs >> (k % 64)) & 1u) ? -near.scale : near.scale);
  }
};

// The entries a check looks at: every one, column by column, or a sample, and then every entry of
// the row a near draw changed.
std::vector<Entry> checked_entries(std::int64_t M, std::int64_t N, std::int64_t K,
                                   std::uint64_t positions, std::int64_t near_row) {
  std::vector<Entry> entries;
  if (full_check(M, N, K)) {
    for (std::int64_t j = 0; j < N; ++j) {
      for (std::int64_t i = 0; i < M; ++i) entries.push_back({i, j});
    }
  } else {
    for (const auto& [i, j] : sampled_entries(M, N, kSampleCount, positions)) {
      entries.push_back({i, j});
    }
    if (near_row >= 0) {
      for (std::int64_t j = 0; j < N; ++j) entries.push_back({near_row, j});
    }
  }
  return entries;
}

// Two checks of one output as one: the worse error, its metrics, and every entry counted.
kb_verification merged(kb_verification a, const kb_verification& b) {
  const bool b_worse = !b.passed || b.max_rel_error > a.max_rel_error;
  const std::uint64_t checked = a.checked + b.checked;
  const bool passed = a.passed && b.passed;
  if (b_worse) a = b;
  a.checked = checked;
  a.passed = passed;
  return a;
}

kb_verification judge(const std::vector<Entry>& entries, const std::vector<double>& got,
                      const std::vector<double>& exact, const std::vector<double>& magnitude,
                      Precision precision, std::int64_t K, bool full) {
  kb_verification result{};
  result.checked = entries.size();
  result.tolerance = tolerance(precision, K);
  std::size_t worst = 0;
  for (std::size_t e = 0; e < entries.size(); ++e) {
    double error = std::fabs(got[e] - exact[e]) /
                   std::max(magnitude[e], std::numeric_limits<double>::min());
    if (!std::isfinite(error)) error = INFINITY;
    if (e == 0 || error > result.max_rel_error) result.max_rel_error = error, worst = e;
  }
  result.passed = result.max_rel_error <= result.tolerance;
  if (!entries.empty()) {
    std::snprintf(result.metrics, sizeof result.metrics,
                  "error=|c-exact|/sum_k|a*b|;precision=%s;entries=%s;worst=%lldx%lld;"
                  "worst_c=%.17g;worst_exact=%.17g",
                  name_of(precision), full ? "all" : "sampled",
                  static_cast<long long>(entries[worst].i), static_cast<long long>(entries[worst].j),
                  got[worst], exact[worst]);
  }
  return result;
}

template <typename T>
class Referee {
 public:
  static kb_work work(const kb_case& c) {
    const double M = static_cast<double>(c.shape[0]), N = static_cast<double>(c.shape[1]),
                 K = static_cast<double>(c.shape[2]);
    return kb_work{(M * K + K * N) * sizeof(T) + M * N * sizeof(Product<T>), 2.0 * M * N * K};
  }

  Referee(const kb_case& c, kb_device_kind where)
      : dtype_(c.dtype), M(c.shape[0]), N(c.shape[1]), K(c.shape[2]),
        a_(where, static_cast<std::size_t>(M * K)), b_(where, static_cast<std::size_t>(K * N)),
        c_(where, static_cast<std::size_t>(M * N)) {}

  kb_buffers buffers() const {
    kb_buffers b{};
    b.input_count = 2;
    b.inputs[0] = operand_of(a_);
    b.inputs[1] = operand_of(b_);
    b.output_count = 1;
    b.outputs[0] = operand_of(c_);
    return b;
  }

  void draw(std::uint64_t seed, std::uint32_t purpose, cudaStream_t stream) {
    if (purpose == KB_DRAW_NEAR) {
      near_ = NearRow::of(seed, M, K);
      fill_generated(a_, NearA<T>{RandomValues<T>{seed_, kStreamA}, near_, K}, stream);
      return;
    }
    seed_ = seed;
    near_ = NearRow{};
    fill_generated(a_, RandomValues<T>{seed, kStreamA}, stream);
    fill_generated(b_, RandomValues<T>{seed, kStreamB}, stream);
  }

  void poison(cudaStream_t stream) { c_.poison(stream); }

  kb_verification check(std::uint32_t strategy_flags, cudaStream_t stream) {
    const Precision precision = precision_for(dtype_, strategy_flags);
    const std::uint64_t positions = (std::uint64_t{random_()} << 32) ^ random_();
    if (c_.where() == KB_DEVICE_HOST) {
      const kb_verification all =
          verify_product(a_.data(), b_.data(), c_.data(), M, N, K, precision, positions);
      if (near_.row < 0 || full_check(M, N, K)) return all;
      // The changed row, every entry of it: a product of one row (its last row, checked whole).
      return merged(all, verify_product(a_.data() + near_.row * K, b_.data(),
                                        c_.data() + near_.row * N, 1, N, K, precision, positions));
    }
    const std::vector<Entry> entries = checked_entries(M, N, K, positions, near_.row);
    const std::size_t count = entries.size();
    Array<Entry> device_entries(KB_DEVICE_CUDA, count);
    Array<double> figures(KB_DEVICE_CUDA, 3 * count);
    KB_CUDA_CHECK(cudaMemcpyAsync(device_entries.data(), entries.data(), count * sizeof(Entry),
                                  cudaMemcpyHostToDevice, stream));
    const auto blocks = static_cast<unsigned>((count * 32 + 255) / 256);
    entry_references<T><<<blocks, 256, 0, stream>>>(a_.data(), b_.data(), c_.data(), N, K,
                                                    device_entries.data(), count, figures.data(),
                                                    figures.data() + count,
                                                    figures.data() + 2 * count);
    KB_CUDA_CHECK(cudaGetLastError());
    std::vector<double> host(3 * count);
    KB_CUDA_CHECK(cudaMemcpyAsync(host.data(), figures.data(), host.size() * sizeof(double),
                                  cudaMemcpyDeviceToHost, stream));
    KB_CUDA_CHECK(cudaStreamSynchronize(stream));
    const std::vector<double> got(host.begin(), host.begin() + count);
    const std::vector<double> exact(host.begin() + count, host.begin() + 2 * count);
    const std::vector<double> magnitude(host.begin() + 2 * count, host.end());
    return judge(entries, got, exact, magnitude, precision, K, full_check(M, N, K));
  }

 private:
  kb_dtype dtype_;
  std::int64_t M, N, K;
  Array<T> a_, b_;
  Array<Product<T>> c_;
  std::random_device random_;
  std::uint64_t seed_ = 0;  // of the last timed or check draw
  NearRow near_{};          // of a near draw after it
};

using MatmulDTypes = DTypes<float, double, __half, __nv_bfloat16>;

int accepts(const kb_case* c, kb_message* why) {
  if (c->shape[0] < 1 || c->shape[1] < 1 || c->shape[2] < 1) {
    std::snprintf(why->text, sizeof why->text, "M, N and K must be at least 1");
    return 0;
  }
  return 1;
}

}  // namespace
}  // namespace kb::matmul

KBENCH_FAMILY(kb::matmul::Referee, kb::matmul::MatmulDTypes,
              {.info = kb::matmul::descriptor(),
               .version = "3",
               .accepts = kb::matmul::accepts})
