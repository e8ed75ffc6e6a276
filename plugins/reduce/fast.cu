// The fastest reduction here: a memory-bound loop kept at the memory's pace. Each thread loads 16
// bytes at a time (LDG.E.128) and has kUnroll of them in flight before it adds the first; its last
// few vectors go out as one predicated batch too, so no thread ends on a chain of lone round trips
// while the rest of the chip idles. The grid is one full wave of 512-thread blocks walking n
// grid-stride; a block adds its threads with warp shuffles, and the last block to finish adds the
// block totals, in block order, in the same launch: one kernel, no atomic on the result, the same
// float result every launch. It chooses its own launch shape.
#include <kbench/families/reduce_device.cuh>

#include <cstdint>

namespace {

using namespace kb::reduce;

// 512, not 256: the same threads per SM in half the blocks, so half the block totals and half the
// arrivals that queue on the one counter at the end of the launch.
constexpr unsigned kThreads = 512;
// A full SM (2048 threads) of resident blocks: caps the registers at 32, so that one more register
// cannot quietly cost a block per SM and a quarter of the loads in flight.
constexpr unsigned kBlocksPerSm = 2048 / kThreads;
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

// __ldg's non-coherent 16-byte load, plus a hint that the L2 fetch whole 256-byte blocks from DRAM:
// every warp reads 512 contiguous bytes, so the hint fetches nothing unused and the DRAM gets fewer,
// larger requests.
__device__ float4 load(const float4* p) {
  float4 v;
  asm("ld.global.nc.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
      : "l"(p));
  return v;
}
__device__ int4 load(const int4* p) {
  int4 v;
  asm("ld.global.nc.L2::256B.v4.s32 {%0, %1, %2, %3}, [%4];"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
      : "l"(p));
  return v;
}
__device__ double2 load(const double2* p) {
  double2 v;
  asm("ld.global.nc.L2::256B.v2.f64 {%0, %1}, [%2];" : "=d"(v.x), "=d"(v.y) : "l"(p));
  return v;
}

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
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
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
    for (int k = 0; k < kUnroll; ++k) v[k] = load(vectors + i + k * stride);
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) sum += lane_sum<Acc>(v[k], op);
  }
  // The fewer than kUnroll vectors left, all in flight at once: one round trip, not one each. A
  // missing vector reads as zeros, whose terms add exactly nothing.
  {
    V v[kUnroll - 1];
#pragma unroll
    for (int k = 0; k < kUnroll - 1; ++k) {
      v[k] = i + k * stride < count ? load(vectors + i + k * stride) : V{};
    }
#pragma unroll
    for (int k = 0; k < kUnroll - 1; ++k) sum += lane_sum<Acc>(v[k], op);
  }
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

  // A thread's chain over its vectors (each one a pairwise sum of kWidth lanes; the zero vectors
  // of the last batch add exactly) and the tail element, then two 9-level block sums.
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
               "16-byte loads (L2 256-byte fetches), 4 in flight per thread and the last "
               "ones as one batch, one wave of 512-thread blocks, warp shuffles, last block "
               "finishes",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE, kb::reduce::kOps})
