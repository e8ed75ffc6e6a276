// scan/blocked: three passes. Each block owns a tile of block x items elements, each thread
// `items` consecutive ones (the knob: more items per thread, fewer blocks and partial sums).
//   1. each block sums its tile;
//   2. one block scans the tile sums into tile offsets;
//   3. each block scans its tile again, from its offset: threads scan their items in registers,
//      the block scans the thread totals in shared memory.
// The tile sums are the strategy's own scratch, allocated once when the case is prepared.
#include "scan.hpp"

#include <cstdio>

namespace {

constexpr kb_param kParams[] = {
    {"items", "4", "1,2,4,8", "consecutive elements per thread"}};

// The exclusive scan of one value per thread across the block (Hillis-Steele in shared memory);
// the block's total comes back in *total.
template <typename T>
__device__ T block_exclusive_scan(T value, T* shared, T* total) {
  const int t = threadIdx.x;
  shared[t] = value;
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    const T add = t >= offset ? shared[t - offset] : T(0);
    __syncthreads();
    shared[t] += add;
    __syncthreads();
  }
  const T inclusive = shared[t];
  *total = shared[blockDim.x - 1];
  __syncthreads();
  return inclusive - value;
}

template <typename T, int kItems>
__global__ void tile_sums(const T* in, std::int64_t n, T* sums) {
  extern __shared__ unsigned char bytes[];
  T* shared = reinterpret_cast<T*>(bytes);
  const std::int64_t first = (blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x) * kItems;
  T sum = 0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) sum += first + i < n ? in[first + i] : T(0);
  T total;
  block_exclusive_scan(sum, shared, &total);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// One block: the tile sums become each tile's exclusive offset, in place.
template <typename T>
__global__ void scan_sums(T* sums, std::int64_t tiles) {
  extern __shared__ unsigned char bytes[];
  T* shared = reinterpret_cast<T*>(bytes);
  T carried = 0;
  for (std::int64_t start = 0; start < tiles; start += blockDim.x) {
    const std::int64_t i = start + threadIdx.x;
    const T value = i < tiles ? sums[i] : T(0);
    T total;
    const T before = block_exclusive_scan(value, shared, &total);
    if (i < tiles) sums[i] = carried + before;
    carried += total;
  }
}

template <typename T, int kItems>
__global__ void scan_tiles(const T* in, T* out, std::int64_t n, const T* offsets) {
  extern __shared__ unsigned char bytes[];
  T* shared = reinterpret_cast<T*>(bytes);
  const std::int64_t first = (blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x) * kItems;
  T items[kItems];
  T sum = 0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) items[i] = sum += first + i < n ? in[first + i] : T(0);
  T total;
  const T before = offsets[blockIdx.x] + block_exclusive_scan(sum, shared, &total);
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (first + i < n) out[first + i] = before + items[i];
  }
}

template <typename T>
struct Blocked {
  Blocked(const scan::Operands<T>& p, const kb::Params& params)
      : items(static_cast<int>(params.get_int("items", 4))),
        tiles((p.n + std::int64_t{p.block} * items - 1) / (std::int64_t{p.block} * items)),
        sums(KB_DEVICE_CUDA, static_cast<std::size_t>(tiles)) {}

  template <int kItems>
  void run(const scan::Operands<T>& p, kb::Launcher& launch) {
    const std::size_t shared = sizeof(T) * p.block;
    launch(tile_sums<T, kItems>, dim3(tiles), dim3(p.block), shared, p.in(), p.n, sums.data());
    launch(scan_sums<T>, 1, dim3(1024), sizeof(T) * 1024, sums.data(), tiles);
    launch(scan_tiles<T, kItems>, dim3(tiles), dim3(p.block), shared, p.in(), p.out(), p.n,
           sums.data());
  }

  void launch(const scan::Operands<T>& p, kb::Launcher& launch) {
    switch (items) {
      case 1: return run<1>(p, launch);
      case 2: return run<2>(p, launch);
      case 4: return run<4>(p, launch);
      case 8: return run<8>(p, launch);
    }
    throw kb::Error(KB_UNSUPPORTED, "items=" + std::to_string(items) + " is not 1, 2, 4 or 8");
  }

  const int items;
  const std::int64_t tiles;
  kb::Array<T> sums;
};

// A 1-D block of a power of two (the shared-memory scan's halving), at most 1024 threads.
int accepts(const kb_case* c, kb_message* why) {
  const int x = c->block[0];
  if (c->block[1] > 1 || c->block[2] > 1 || x < 32 || (x & (x - 1)) != 0) {
    std::snprintf(why->text, sizeof why->text, "a 1-D block of a power of two, 32 to 1024");
    return 0;
  }
  if ((c->shape[0] + x - 1) / x > 0x7fffffff) {
    std::snprintf(why->text, sizeof why->text, "too many tiles for one grid");
    return 0;
  }
  return 1;
}

}  // namespace

KBENCH_STRATEGY(scan::Operands, Blocked, kb::DTypes<std::int32_t>,
                {.name = "scan/blocked",
                 .version = "1",
                 .description = "three passes: tile sums, their scan, tiles scanned from it",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT,
                 .accepts = accepts,
                 .params = kb::ParamList(kParams)})
