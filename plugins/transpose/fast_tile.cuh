// The tile transpose behind transpose/fast. A tile is a parameter tall (bytes of an output row:
// 256 or 512) and a parameter wide (16-byte chunks it reads of each input row: 128, 256 or 512
// bytes). Each thread always moves 4 chunks, so chunks in flight per thread and threads per SM
// (2048) do not change with the shape; the blocks per SM do.
//
// Which height is best depends on the GPU. Measured in one run each (2026-11-25, a standalone
// benchmark beside cudaMemcpyAsync, float32 8192x8192): on an H100, 512-byte-tall tiles (64 KB of
// shared memory, 2 blocks per SM) reached 0.957 of the copy and 256-byte-tall ones (16-32 KB, 4-8
// blocks per SM) 0.970-0.973 (float64 0.971 -> 0.980-0.982); on an H200 the other way round,
// 0.942 against 0.933-0.938 (float64 0.947 against 0.928-0.936). 128-byte-tall tiles lost on both
// (0.934, 0.876). The copy itself runs on the DMA engines (Nsight Compute sees no kernel for it);
// copies issued by the SMs reached 0.937 (16-byte loads and stores) and 0.949 (the bulk copy
// engine, cp.async.bulk) of it on the H100, 0.906-0.942 (bulk) on the H200, so a transpose that
// moves the fewest DRAM bytes (Nsight Compute: 268 MB read at 8192x8192 float32) has little more
// to take.
//
//  - every global access is 16 bytes wide (LDG.128 / STG.128) and a warp's accesses cover whole
//    128-byte lines: whole tile rows per load, runs of output rows as long as the tile is tall
//    per store;
//  - each thread loads its 4 chunks into registers before it stores any: 128 KB in flight per
//    full SM, several times what covering the DRAM latency needs;
//  - the transpose happens in two steps: the tile goes to shared memory as rows of 16-byte
//    chunks, then each thread reads a W x W block of elements (W = 16 / sizeof(T)) as W chunks
//    down a column and transposes it in registers. A chunk's position is XOR-swizzled by its row
//    so that in both steps the 8 threads of a 16-byte shared-memory phase touch 8 different bank
//    groups (no conflicts; padding would break the 16-byte alignment).
// The 16-byte path needs rows and cols divisible by W (every row then starts aligned); the tiles
// at the right and bottom edges take it too, predicated per chunk. Shapes that are not divisible
// (1111x113, 4097x1) take a second kernel that moves single elements through the same tile. One
// launch runs exactly one of the two kernels.
#pragma once

#include <kbench/families/transpose.hpp>

#include <cstdint>
#include <string>

namespace {

// One 16-byte access, as the CUDA vector type of T.
template <typename T>
struct Vector;
template <>
struct Vector<float> { using type = float4; };
template <>
struct Vector<std::int32_t> { using type = int4; };
template <>
struct Vector<double> { using type = double2; };
template <typename T>
using Chunk = typename Vector<T>::type;

template <typename T>
constexpr int kWidth = 16 / sizeof(T);  // elements per chunk

template <typename T>
__device__ T& lane(Chunk<T>& chunk, int i) {
  return reinterpret_cast<T*>(&chunk)[i];
}

// A tile's geometry: kHeightBytes of an output row (kRows input rows) by kChunksPerRow chunks of
// an input row (kCols input columns).
template <typename T_, int kHeightBytes, int kChunksPerRow_>
struct TileShape {
  using T = T_;
  static constexpr int kChunksPerRow = kChunksPerRow_;
  static constexpr int kRows = kHeightBytes / static_cast<int>(sizeof(T));
  static constexpr int kCols = kChunksPerRow * kWidth<T>;
  static constexpr int kThreads = kRows * kChunksPerRow / 4;  // 4 chunks per thread
  // A full SM: ptxas fits every kernel in 32 registers without spilling.
  static constexpr int kBlocksPerSm = 2048 / kThreads;
  static_assert(kChunksPerRow % 8 == 0, "the swizzle permutes aligned groups of 8 chunks");
  static_assert(kRows / kWidth<T> >= 8, "8 groups of W rows per period of the swizzle");
};

template <class S>
struct Tile {
  using T = typename S::T;
  // Row r's chunk c lives at c ^ (r / W % 8): the 8 chunks 8 neighbouring threads store along a
  // row stay a permutation of their aligned group of 8, and the 8 chunks they later read down a
  // chunk column (rows W apart, one per W-row group) land in 8 different groups.
  __device__ Chunk<T>& at(int r, int c) {
    return chunks[r * S::kChunksPerRow + (c ^ (r / kWidth<T> % 8))];
  }
  __device__ T& element(int r, int c) { return lane<T>(at(r, c / kWidth<T>), c % kWidth<T>); }

  Chunk<T> chunks[S::kRows * S::kChunksPerRow];
};

// Static shared memory holds at most 48 KB; the largest tile (512 x 512 bytes of a 4-byte type,
// 64 KB) is dynamic, its size given at launch and allowed by TiledTranspose::prepare.
template <class S>
constexpr bool kDynamicTile = sizeof(Tile<S>) > 48 * 1024;

template <class S>
__device__ Tile<S>& shared_tile() {
  if constexpr (kDynamicTile<S>) {
    extern __shared__ uint4 dynamic_tile[];  // uint4: 16-byte aligned, one type for every shape
    return *reinterpret_cast<Tile<S>*>(dynamic_tile);
  } else {
    __shared__ Tile<S> tile;
    return tile;
  }
}

// The order in which the blocks of the 1D grid (no 65535 limit on either dimension) take the
// tiles: across each band of kRows input rows in turn (consecutive blocks read consecutive stretches
// of the input), or down each band of kCols input columns (consecutive blocks write consecutive
// stretches of the output). Blocks run roughly in index order, so this decides which side of the
// transpose DRAM sees as one stream. On an H100 the row bands were as fast or up to 0.8% faster;
// on an H200 the column bands won by 2.5-3.5% (fast.cu).
enum class TileOrder : int { row_bands, column_bands };

struct TileOrigin {
  std::int64_t r0, c0;  // first input row and column of this block's tile
  int rows, cols;       // how many of the tile's rows and columns lie inside the matrix
};

template <class S>
__device__ TileOrigin tile_origin(std::int64_t rows, std::int64_t cols, TileOrder order) {
  TileOrigin t;
  if (order == TileOrder::row_bands) {
    const std::int64_t tiles_per_row = (cols + S::kCols - 1) / S::kCols;
    t.r0 = blockIdx.x / tiles_per_row * S::kRows;
    t.c0 = blockIdx.x % tiles_per_row * S::kCols;
  } else {
    const std::int64_t tiles_per_column = (rows + S::kRows - 1) / S::kRows;
    t.r0 = blockIdx.x % tiles_per_column * S::kRows;
    t.c0 = blockIdx.x / tiles_per_column * S::kCols;
  }
  t.rows = static_cast<int>(min(rows - t.r0, std::int64_t{S::kRows}));
  t.cols = static_cast<int>(min(cols - t.c0, std::int64_t{S::kCols}));
  return t;
}

template <class S>
__global__ void __launch_bounds__(S::kThreads, S::kBlocksPerSm)
    transpose_fast_chunks(const typename S::T* __restrict__ in, typename S::T* __restrict__ out,
                          std::int64_t rows, std::int64_t cols, TileOrder order) {
  using T = typename S::T;
  constexpr int W = kWidth<T>;
  constexpr int kChunksPerRow = S::kChunksPerRow;
  constexpr int kThreadsPerBlock = S::kThreads;
  constexpr int kLoads = S::kRows * kChunksPerRow / kThreadsPerBlock;  // chunks each reads
  constexpr int kRowGroups = S::kRows / W;
  constexpr int kBlocks = kRowGroups * kChunksPerRow / kThreadsPerBlock;  // W x W blocks each
  Tile<S>& tile = shared_tile<S>();
  const TileOrigin t = tile_origin<S>(rows, cols, order);
  // Consecutive threads read consecutive chunks of a tile row. A thread keeps its chunk column
  // and steps down kRowStep rows per load; the indices are unsigned and hoisted out of the loops
  // (the same accesses as i = threadIdx.x + k * threads) so that the 4 loaded chunks, the
  // addresses and the indices fit in 32 registers.
  constexpr int kRowStep = kThreadsPerBlock / kChunksPerRow;
  const unsigned tid = threadIdx.x;
  const int r_first = static_cast<int>(tid / kChunksPerRow);
  const int c_load = static_cast<int>(tid % kChunksPerRow);
  const bool c_inside = c_load * W < t.cols;
  const T* src = in + (t.r0 + r_first) * cols + t.c0 + c_load * W;
  Chunk<T> loaded[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    if (r_first + k * kRowStep < t.rows && c_inside) {
      loaded[k] = *reinterpret_cast<const Chunk<T>*>(src + k * kRowStep * cols);
    }
  }
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    const int r = r_first + k * kRowStep;
    if (r < t.rows && c_inside) tile.at(r, c_load) = loaded[k];
  }
  __syncthreads();

  // Consecutive threads take consecutive W-row groups of one chunk column: consecutive chunks of
  // an output row.
#pragma unroll
  for (int k = 0; k < kBlocks; ++k) {
    const int i = threadIdx.x + k * kThreadsPerBlock;
    const int g = i % kRowGroups, c = i / kRowGroups;
    if (g * W >= t.rows || c * W >= t.cols) continue;
    Chunk<T> column[W], transposed[W];
#pragma unroll
    for (int m = 0; m < W; ++m) column[m] = tile.at(g * W + m, c);
#pragma unroll
    for (int m = 0; m < W; ++m) {
#pragma unroll
      for (int n = 0; n < W; ++n) lane<T>(transposed[n], m) = lane<T>(column[m], n);
    }
#pragma unroll
    for (int n = 0; n < W; ++n) {
      // __stwb is a plain store; an assignment from the lane-built vector would be split into
      // W single-element stores.
      __stwb(reinterpret_cast<Chunk<T>*>(out + (t.c0 + c * W + n) * rows + t.r0 + g * W),
             transposed[n]);
    }
  }
}

template <class S>
__global__ void __launch_bounds__(S::kThreads, S::kBlocksPerSm)
    transpose_fast_elements(const typename S::T* __restrict__ in, typename S::T* __restrict__ out,
                            std::int64_t rows, std::int64_t cols, TileOrder order) {
  constexpr int kCols = S::kCols;
  constexpr int kThreadsPerBlock = S::kThreads;
  constexpr int kPerThread = S::kRows * kCols / kThreadsPerBlock;
  Tile<S>& tile = shared_tile<S>();
  const TileOrigin t = tile_origin<S>(rows, cols, order);

#pragma unroll 4
  for (int k = 0; k < kPerThread; ++k) {
    const int i = threadIdx.x + k * kThreadsPerBlock;
    const int r = i / kCols, c = i % kCols;
    if (r < t.rows && c < t.cols) tile.element(r, c) = in[(t.r0 + r) * cols + t.c0 + c];
  }
  __syncthreads();
#pragma unroll 4
  for (int k = 0; k < kPerThread; ++k) {
    const int i = threadIdx.x + k * kThreadsPerBlock;
    const int c = i / S::kRows, r = i % S::kRows;
    if (r < t.rows && c < t.cols) out[(t.c0 + c) * rows + t.r0 + r] = tile.element(r, c);
  }
}

// The host side: picks the kernel (16-byte path or single elements) and the 1D grid of tiles.
template <class S>
struct TiledTranspose {
  using T = typename S::T;
  static constexpr std::size_t kDynamicBytes = kDynamicTile<S> ? sizeof(Tile<S>) : 0;

  // Sets its kernels' shared-memory attributes: once per case, before the first launch.
  static void prepare() {
    for (const void* kernel : {reinterpret_cast<const void*>(transpose_fast_chunks<S>),
                               reinterpret_cast<const void*>(transpose_fast_elements<S>)}) {
      // Past 48 KB a kernel's dynamic shared memory must be allowed first, per kernel.
      if constexpr (kDynamicTile<S>) {
        KB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(kDynamicBytes)));
      }
      // The largest carveout keeps every block the threads allow resident (up to 128 KB of
      // tiles per SM; the default may leave L1 more and the SM fewer blocks).
      KB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                         cudaSharedmemCarveoutMaxShared));
    }
  }

  static void launch(const kb::transpose::Operands<T>& p, kb::Launcher& launch, TileOrder order,
                     const char* name) {
    const std::int64_t tiles =
        (p.rows + S::kRows - 1) / S::kRows * ((p.cols + S::kCols - 1) / S::kCols);
    if (tiles > std::int64_t{0x7fffffff}) {
      throw kb::Error(KB_UNSUPPORTED, std::string(name) + ": more than 2^31-1 tiles");
    }
    const bool chunked = p.rows % kWidth<T> == 0 && p.cols % kWidth<T> == 0 &&
                         aligned_16(p.in()) && aligned_16(p.out());
    launch(chunked ? transpose_fast_chunks<S> : transpose_fast_elements<S>,
           dim3(static_cast<unsigned>(tiles)), dim3(S::kThreads), kDynamicBytes, p.in(), p.out(),
           p.rows, p.cols, order);
  }

  static bool aligned_16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }
};

}  // namespace
