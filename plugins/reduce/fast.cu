// The fastest reduction here: a memory-bound loop kept at the memory's pace. Each thread loads 16
// bytes at a time (LDG.E.128, 2 to 16 elements by type) and has kUnroll of them in flight before
// it adds the first, the last step included (its loads are predicated, not a serial remainder
// loop); the grid is one full wave of 1024-thread blocks walking n grid-stride; a block adds its
// threads with warp shuffles. Integer totals meet in one atomic accumulator; float totals are
// added by the last block, in block order, so a float result is the same every launch. One
// kernel, no second pass. It chooses its own launch shape.
//
// Picked by A/B on the H100, 2^26 int32 sum of squares: 256-thread blocks with a serial remainder
// loop and the last-block finish for every type took 92.35 us; predicating the last step and the
// atomic finish 91.33; 512-thread blocks 90.91; 1024-thread blocks 89.82. Unroll 8 gained nothing,
// contiguous per-block chunks lost 6% at 2^28.
#include <kbench/families/reduce_device.cuh>

#include <cstdint>
#include <type_traits>

namespace {

using namespace kb::reduce;

constexpr unsigned kThreads = 1024;
constexpr int kUnroll = 4;

// 16 bytes of T, read with one LDG.E.128 whatever T is: 4 float32 or int32, 2 float64, 8 float16
// or bfloat16, 16 int8.
template <typename T>
struct alignas(16) Chunk {
  static constexpr int kLanes = 16 / sizeof(T);
  T lane[kLanes];
};

// The chunk at `at`, or zeros (0 in every type here) when `inside` is false.
template <typename T>
__device__ Chunk<T> load_chunk(const Chunk<T>* at, bool inside) {
  const int4 bits = inside ? __ldg(reinterpret_cast<const int4*>(at)) : make_int4(0, 0, 0, 0);
  Chunk<T> chunk;
  memcpy(&chunk, &bits, sizeof chunk);
  return chunk;
}

// The terms of `lanes` lanes added pairwise, in A. For int8, A is int32: 16 squares of at most
// 128^2 are 2^18, so a chunk's sum is exact there and only one 64-bit add per chunk remains (64-bit
// integer arithmetic is emulated, and 16 of it per 16 bytes would make the loop compute-bound).
template <typename A, int kLanes, typename T>
__device__ A lane_sum(const T* lane, Op op) {
  if constexpr (kLanes == 1) {
    return term(op, static_cast<A>(lane[0]));
  } else {
    return lane_sum<A, kLanes / 2>(lane, op) + lane_sum<A, kLanes / 2>(lane + kLanes / 2, op);
  }
}

template <typename T>
using ChunkSum = std::conditional_t<sizeof(T) == 1, std::int32_t, Result<T>>;

template <typename T>
__global__ void __launch_bounds__(kThreads)
    reduce_fast(const T* in, std::int64_t n, Op op, LastBlock<Result<T>> float_scratch,
                AtomicTotal integer_scratch, Result<T>* out) {
  using Acc = Result<T>;
  using V = Chunk<T>;
  constexpr int kWidth = V::kLanes;
  const V* vectors = reinterpret_cast<const V*>(in);
  const std::int64_t count = n / kWidth;
  const std::int64_t stride = std::int64_t{gridDim.x} * kThreads;
  const std::int64_t thread = std::int64_t{blockIdx.x} * kThreads + threadIdx.x;

  Acc sum = 0;
  for (std::int64_t i = thread; i < count; i += kUnroll * stride) {
    V v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      v[k] = load_chunk(vectors + i + k * stride, i + k * stride < count);
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) sum += lane_sum<ChunkSum<T>, kWidth>(v[k].lane, op);
  }
  // The n % kWidth elements after the last whole vector: one each for the first threads.
  if (thread < n - count * kWidth) sum += term(op, static_cast<Acc>(in[count * kWidth + thread]));

  const Acc block_total = block_sum(sum);
  Acc total;
  if constexpr (std::is_integral_v<Acc>) {
    if (threadIdx.x == 0 && atomic_grid_total(block_total, integer_scratch, total)) *out = total;
  } else {
    if (grid_total(block_total, float_scratch, BlockSum{}, total)) *out = total;
  }
}

template <typename T>
struct Fast {
  static constexpr int kWidth = Chunk<T>::kLanes;

  explicit Fast(const Operands<T>& p)
      : grid(resident_grid(reduce_fast<T>, kThreads, 0, ceil_div(p.n, kWidth))),
        float_scratch(std::is_integral_v<T> ? 0 : grid) {
    // cudaMalloc aligns to 256 bytes; the vector loads need 16.
    if (reinterpret_cast<std::uintptr_t>(p.in()) % 16 != 0) {
      throw kb::Error(KB_ERROR, "reduce/fast needs its input aligned to 16 bytes");
    }
  }

  void launch(const Operands<T>& p, kb::Launcher& launch) {
    launch(reduce_fast<T>, grid, kThreads, 0, p.in(), p.n, p.op, float_scratch.view(),
           integer_scratch.view(), p.out());
  }

  const unsigned grid;
  LastBlockScratch<Result<T>> float_scratch;
  AtomicTotalScratch integer_scratch;
};

}  // namespace

KBENCH_STRATEGY(kb::reduce::Operands, Fast, kb::reduce::DTypesOfAnySize,
                {.name = "reduce/fast",
                 .version = "3",
                 .description = "16-byte loads, 4 in flight per thread, one wave of 1024-thread "
                                "blocks, warp shuffles; integers finish with one atomic, floats "
                                "in the last block",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_SIMT,
                 .ops = kb::reduce::kOps})
