// Kahan's compensated summation (seed 003 uses it in its matrix product) on the warp_shuffle
// structure: every addition's rounding error is recovered exactly and carried in a second number,
// in each thread's chain, in the shuffles and in the last block alike, so a float result is about
// as accurate as the exact sum rounded once, whatever n. It costs six flops per element instead
// of one, which a memory-bound loop hides, and twice the shuffles. Built with -fmad=false: a
// multiply fused into one of these additions would break their exactness.
#include <kbench/families/reduce_device.cuh>

namespace {

using namespace kb::reduce;

template <typename T>
struct Compensated {
  T sum;
  T error;  // the value is sum + error
};

// TwoSum (Knuth, TAOCP vol. 2, 4.2.2): s + e == a.sum + b.sum exactly. Unlike Kahan's original
// update it does not need |a| >= |b|, which adding two partial sums cannot promise.
template <typename T>
__device__ Compensated<T> operator+(Compensated<T> a, Compensated<T> b) {
  const T s = a.sum + b.sum;
  const T z = s - a.sum;
  const T e = (a.sum - (s - z)) + (b.sum - z);
  return {s, a.error + b.error + e};
}

template <typename T>
__device__ Compensated<T>& operator+=(Compensated<T>& a, Compensated<T> b) {
  return a = a + b;
}

// Found by the family's warp_sum() through argument-dependent lookup.
template <typename T>
__device__ Compensated<T> shuffle_down(Compensated<T> v, unsigned offset) {
  return {__shfl_down_sync(0xffffffffu, v.sum, offset),
          __shfl_down_sync(0xffffffffu, v.error, offset)};
}

template <typename T>
__global__ void reduce_kahan(const T* in, std::int64_t n, Op op, LastBlock<Compensated<T>> scratch,
                             T* out) {
  Compensated<T> sum{};
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
    sum += Compensated<T>{term(op, in[i]), T{0}};
  }
  Compensated<T> total;
  if (grid_total(block_sum(sum), scratch, BlockSum{}, total)) *out = total.sum + total.error;
}

template <typename T>
struct Kahan {
  explicit Kahan(const Operands<T>& p)
      : grid(resident_grid(reduce_kahan<T>, p.block, 0, p.n)), scratch(grid) {}

  void launch(const Operands<T>& p, kb::Launcher& launch) {
    launch(reduce_kahan<T>, grid, p.block, 0, p.in(), p.n, p.op, scratch.view(), p.out());
  }

  const unsigned grid;
  LastBlockScratch<Compensated<T>> scratch;
};

}  // namespace

KBENCH_STRATEGY(kb::reduce::Operands, Kahan, kb::FloatDTypes,
                {.name = "reduce/kahan",
                 .version = "1",
                 .description =
                     "compensated (Kahan/TwoSum) float sum: every rounding error carried along",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT,
                 .ops = kb::reduce::kOps,
                 .accepts = kb::reduce::accepts_warp_multiple_block})
