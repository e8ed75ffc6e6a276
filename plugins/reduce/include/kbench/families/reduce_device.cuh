// Device code the reduce strategies share: the grid-stride walk, seed 003's thread-0 block sum,
// warp-shuffle block sums, and the last-block-done finish that turns the block totals into one
// result within the same launch. Included by .cu plugins only.
#pragma once

#include <kbench/families/reduce.hpp>
#include <kbench/support/device.hpp>

#include <cuda/atomic>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace kb::reduce {

// Dynamic shared memory as an array of V: one extern declaration serves every V.
template <typename V>
__device__ V* shared_array() {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  return reinterpret_cast<V*>(shared_bytes);
}

// This thread's share of the n terms, walked grid-stride: at every step the 32 threads of a warp
// read 32 neighbouring elements, one coalesced access (seed 003 version 2 with one block, 3 with
// many).
template <typename Acc, typename T>
__device__ Acc grid_stride_sum(const T* in, std::int64_t n, Op op) {
  Acc sum = 0;
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
    sum += term(op, static_cast<Acc>(in[i]));
  }
  return sum;
}

// Seed 003 version 4: every thread's value into shared memory, then thread 0 adds them in order.
// The total is valid in thread 0. Needs blockDim.x * sizeof(V) bytes of dynamic shared memory.
template <typename V>
__device__ V serial_block_sum(V v) {
  V* values = shared_array<V>();
  values[threadIdx.x] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (unsigned i = 1; i < blockDim.x; ++i) v += values[i];
  }
  return v;
}

// One total per block of the grid-stride walk, added up by thread 0: reduce/one_block_strided runs
// it as one block, reduce/multi_block as a grid whose totals the host adds.
template <typename T>
__global__ void strided_block_sums(const T* in, std::int64_t n, Op op, Result<T>* block_totals) {
  const Result<T> total = serial_block_sum(grid_stride_sum<Result<T>>(in, n, op));
  if (threadIdx.x == 0) block_totals[blockIdx.x] = total;
}

// A customisation point: a strategy with an accumulator of its own (reduce/kahan's pair) overloads
// it next to its type, where argument-dependent lookup finds it.
template <typename V>
__device__ V shuffle_down(V v, unsigned offset) {
  return __shfl_down_sync(0xffffffffu, v, offset);
}

// Five shuffle levels; the total is valid in lane 0.
template <typename V>
__device__ V warp_sum(V v) {
#pragma unroll
  for (unsigned offset = 16; offset > 0; offset /= 2) v += shuffle_down(v, offset);
  return v;
}

// Shuffles within each warp and again across the warp totals; shared memory only passes those 32
// totals on. blockDim.x must be a multiple of 32. The total is valid in thread 0.
template <typename V>
__device__ V block_sum(V v) {
  __shared__ V warp_totals[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_sum(v);
  if (lane == 0) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_sum(lane < blockDim.x / 32 ? warp_totals[lane] : V{});
  return v;
}

// block_sum() as a functor, for reduce_grid and grid_total.
struct BlockSum {
  template <typename V>
  __device__ V operator()(V v) const {
    return block_sum(v);
  }
};

// The scratch of grid_total(): one total per block and an arrival counter. The last block resets
// the counter, so every launch finds it at zero and launches stay idempotent.
template <typename V>
struct LastBlock {
  V* block_totals;
  unsigned* arrivals;
};

template <typename V>
class LastBlockScratch {
 public:
  explicit LastBlockScratch(unsigned grid)
      : totals_(KB_DEVICE_CUDA, grid), arrivals_(KB_DEVICE_CUDA, 1) {
    KB_CUDA_CHECK(cudaMemset(arrivals_.data(), 0, sizeof(unsigned)));
    // cudaMemset runs on the legacy default stream, which the runner's non-blocking stream does
    // not wait for.
    KB_CUDA_CHECK(cudaDeviceSynchronize());
  }
  LastBlock<V> view() { return {totals_.data(), arrivals_.data()}; }

 private:
  Array<V> totals_;
  Array<unsigned> arrivals_;
};

// Every block hands in its total; the block that arrives last adds them all up, so the grid needs
// no second launch and no atomic on the result. It adds them in block order whichever block it is,
// so a float result is the same in every launch. `reduce` is the block reduction to use (the
// strategy's own). Returns true in exactly one thread, thread 0 of the last block, with `total`.
template <typename V, typename BlockReduce>
__device__ bool grid_total(V block_total, LastBlock<V> scratch, BlockReduce reduce, V& total) {
  __shared__ bool last;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> arrivals(*scratch.arrivals);
  if (threadIdx.x == 0) {
    scratch.block_totals[blockIdx.x] = block_total;
    // Release: this block's total is visible before its arrival counts. Acquire: the last block
    // sees every total; the barrier below passes that on to its other threads.
    last = arrivals.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return false;
  // This loop is on the critical path of every launch: four loads in flight per thread, not one
  // round trip to L2 after another.
  V sum{};
  for (unsigned i = threadIdx.x; i < gridDim.x; i += 4 * blockDim.x) {
    V totals[4];
#pragma unroll
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned j = i + k * blockDim.x;
      totals[k] = j < gridDim.x ? scratch.block_totals[j] : V{};
    }
#pragma unroll
    for (unsigned k = 0; k < 4; ++k) sum += totals[k];
  }
  sum = reduce(sum);
  if (threadIdx.x != 0) return false;
  arrivals.store(0u, cuda::memory_order_relaxed);
  total = sum;
  return true;
}

// For integer results, which are exact in any order: every block adds its total into one
// accumulator with a single atomic, and the last to arrive takes the sum and resets the
// accumulator and the counter for the next launch. No block reads the others' totals, so the
// finish after the last block's data is two round trips to L2.
struct AtomicTotal {
  unsigned long long* accumulator;
  unsigned* arrivals;
};

class AtomicTotalScratch {
 public:
  AtomicTotalScratch() : words_(KB_DEVICE_CUDA, 2) {
    KB_CUDA_CHECK(cudaMemset(words_.data(), 0, words_.bytes()));
    KB_CUDA_CHECK(cudaDeviceSynchronize());  // see LastBlockScratch
  }
  AtomicTotal view() {
    return {words_.data(), reinterpret_cast<unsigned*>(words_.data() + 1)};
  }

 private:
  Array<unsigned long long> words_;
};

// Called by thread 0 of every block. Returns true in the last block's, with `total`.
__device__ inline bool atomic_grid_total(std::int64_t block_total, AtomicTotal scratch,
                                         std::int64_t& total) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> sum(*scratch.accumulator);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> arrivals(*scratch.arrivals);
  // Two's complement wraps the same in unsigned arithmetic, so negative totals add correctly.
  sum.fetch_add(static_cast<unsigned long long>(block_total), cuda::memory_order_relaxed);
  // Release: this block's addition comes before its arrival. Acquire: the last sees them all.
  if (arrivals.fetch_add(1u, cuda::memory_order_acq_rel) != gridDim.x - 1) return false;
  total = static_cast<std::int64_t>(sum.exchange(0ull, cuda::memory_order_relaxed));
  arrivals.store(0u, cuda::memory_order_relaxed);
  return true;
}

// The blocks of one full wave: as many as the device keeps resident at once for this kernel, fewer
// when `items` (what one thread takes per step) needs fewer. A grid-stride walk gains nothing from
// more; they would only add block totals.
template <typename Kernel>
unsigned resident_grid(Kernel kernel, unsigned block, std::size_t shared_bytes,
                       std::int64_t items) {
  const int sms = current_device_attribute(cudaDevAttrMultiProcessorCount);
  int per_sm = 0;
  KB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, kernel, static_cast<int>(block), shared_bytes));
  const std::int64_t wave = std::int64_t{sms} * std::max(per_sm, 1);
  return static_cast<unsigned>(std::max<std::int64_t>(1, std::min(wave, ceil_div(items, block))));
}

// The grid-stride walk, a block reduction, the last block's finish: the plugins that differ only
// in their block reduction `Reduce` (a functor on any accumulator type V, total valid in thread 0)
// share this kernel and GridReduce below.
template <typename T, typename Reduce>
__global__ void reduce_grid(const T* in, std::int64_t n, Op op, LastBlock<Result<T>> scratch,
                            Result<T>* out) {
  Result<T> total;
  if (grid_total(Reduce{}(grid_stride_sum<Result<T>>(in, n, op)), scratch, Reduce{}, total)) {
    *out = total;
  }
}

// The strategy around reduce_grid<T, Reduce>: one full wave of blocks, chosen with the case in
// setup, blockDim.x * sizeof(Result<T>) bytes of dynamic shared memory for the trees.
template <typename T>
class GridReduce {
 public:
  using Acc = Result<T>;
  using Kernel = void (*)(const T*, std::int64_t, Op, LastBlock<Acc>, Acc*);

  GridReduce(const Operands<T>& p, Kernel kernel)
      : kernel_(kernel),
        shared_bytes_(p.block * sizeof(Acc)),
        grid_(resident_grid(kernel, p.block, shared_bytes_, p.n)),
        scratch_(grid_) {}

  void launch(const Operands<T>& p, Launcher& launch) {
    launch(kernel_, grid_, p.block, shared_bytes_, p.in(), p.n, p.op, scratch_.view(), p.out());
  }

 private:
  Kernel kernel_;
  std::size_t shared_bytes_;
  unsigned grid_;
  LastBlockScratch<Acc> scratch_;
};

}  // namespace kb::reduce
