// The fastest reduction here: a memory-bound loop kept at the memory's pace. Each thread loads 16
// bytes at a time (LDG.E.128) and has kUnroll of them in flight before it adds the first; the grid
// is one full wave of 256-thread blocks walking n grid-stride; a block adds its threads with warp
// shuffles, and the last block to finish adds the block totals, in block order, in the same
// launch: one kernel, no atomic on the result, the same float result every launch. It chooses its
// own launch shape.
#include <kbench/families/reduce_device.cuh>

#include <cstdint>

namespace {

using namespace kb::reduce;

constexpr unsigned kThreads = 256;
constexpr int kUnroll = 4;

template <typename T>
struct Vector;
template <>
struct Vector<float> {
  using type = float4;
};
template <>
struct Vector<double> {
  using type = double2;
};
template <>
struct Vector<std::int32_t> {
  using type = int4;
};

template <typename Acc, typename V>
__device__ Acc lane_sum(V v, Op op) {
  if constexpr (sizeof(V) / sizeof(v.x) == 4) {
    return (term(op, static_cast<Acc>(v.x)) + term(op, static_cast<Acc>(v.y))) +
           (term(op, static_cast<Acc>(v.z)) + term(op, static_cast<Acc>(v.w)));
  } else {
    return term(op, static_cast<Acc>(v.x)) + term(op, static_cast<Acc>(v.y));
  }
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    reduce_fast(const T* in, std::int64_t n, Op op, LastBlock<Result<T>> scratch, Result<T>* out) {
  using Acc = Result<T>;
  using V = typename Vector<T>::type;
  constexpr int kWidth = sizeof(V) / sizeof(T);
  const V* vectors = reinterpret_cast<const V*>(in);
  const std::int64_t count = n / kWidth;
  const std::int64_t stride = std::int64_t{gridDim.x} * kThreads;
  const std::int64_t thread = std::int64_t{blockIdx.x} * kThreads + threadIdx.x;

  Acc sum = 0;
  std::int64_t i = thread;
  for (; i + (kUnroll - 1) * stride < count; i += kUnroll * stride) {
    V v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) v[k] = __ldg(vectors + i + k * stride);
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) sum += lane_sum<Acc>(v[k], op);
  }
  for (; i < count; i += stride) sum += lane_sum<Acc>(__ldg(vectors + i), op);
  // The n % kWidth elements after the last whole vector: one each for the first threads.
  if (thread < n - count * kWidth) sum += term(op, static_cast<Acc>(in[count * kWidth + thread]));

  Acc total;
  if (grid_total(block_sum(sum), scratch, BlockSum{}, total)) *out = total;
}

template <typename T>
struct Fast {
  static constexpr int kWidth = sizeof(typename Vector<T>::type) / sizeof(T);

  explicit Fast(const Problem<T>& p)
      : grid(resident_grid(reduce_fast<T>, kThreads, 0, ceil_div(p.n, kWidth))), scratch(grid) {
    // cudaMalloc aligns to 256 bytes; the vector loads need 16.
    if (reinterpret_cast<std::uintptr_t>(p.in()) % 16 != 0) {
      throw kb::Error(KB_ERROR, "reduce/fast needs its input aligned to 16 bytes");
    }
  }

  void launch(const Problem<T>& p, kb::Launcher& launch) {
    launch(reduce_fast<T>, grid, kThreads, 0, p.in(), p.n, p.op, scratch.view(), p.out());
  }

  // A thread's chain over its vectors (each one a pairwise sum of kWidth lanes) and the tail
  // element, then two 8-level block sums.
  kb_verification verify(const Problem<T>& p) const {
    return p.verify(last_block_depth(ceil_div(p.n, kWidth), grid, kThreads, ceil_log2(kThreads)) +
                    ceil_log2(kWidth) + 1);
  }

  const unsigned grid;
  LastBlockScratch<Result<T>> scratch;
};

}  // namespace

KBENCH_PLUGIN(kb::reduce::Problem, Fast, kb::AllDTypes,
              {"reduce/fast", "1",
               "16-byte loads, 4 in flight per thread, one wave of 256-thread blocks, warp "
               "shuffles, last block finishes",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE, kb::reduce::kOps})
