// The tile transpose behind transpose/fast. The width of the tile (16-byte chunks per input row)
// is a template argument because it is the experiment's knob; the height is always 512 bytes of
// an output row (128 4-byte elements, 64 float64), and each thread always moves 4 chunks, so
// threads per SM (2048), chunks in flight per thread and shared memory per SM do not change with
// it. Measured on an H100, same run: 16 chunks (256-byte input runs) reached 0.930-0.953 of copy
// for float32 at 8192x4096 / 8192x8192, 32 chunks (512-byte runs on both sides) 0.957-0.964;
// fast uses 32.
//
//  - every global access is 16 bytes wide (LDG.128 / STG.128) and a warp's accesses cover whole
//    128-byte lines: whole tile rows per load (two 256-byte ones, or one 512-byte one), one
//    512-byte output row per store;
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

template <typename T>
constexpr int kTileRows = 512 / sizeof(T);  // a tile column is 512 bytes of an output row
template <typename T, int kChunksPerRow>
constexpr int kThreads = kTileRows<T> * kChunksPerRow / 4;  // 4 chunks per thread
template <typename T, int kChunksPerRow>
constexpr int kBlocksPerSm = 2048 / kThreads<T, kChunksPerRow>;  // a full SM: ptxas fits every
                                                                 // kernel in 32 registers
                                                                 // without spilling

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
template <typename T, int kChunksPerRow>
constexpr int kTileCols = kChunksPerRow * kWidth<T>;

template <typename T>
__device__ T& lane(Chunk<T>& chunk, int i) {
  return reinterpret_cast<T*>(&chunk)[i];
}

template <typename T, int kChunksPerRow>
struct Tile {
  static_assert(kChunksPerRow % 8 == 0, "the swizzle permutes aligned groups of 8 chunks");

  // Row r's chunk c lives at c ^ (r / W % 8): the 8 chunks 8 neighbouring threads store along a
  // row stay a permutation of their aligned group of 8, and the 8 chunks they later read down a
  // chunk column (rows W apart, one per W-row group) land in 8 different groups.
  __device__ Chunk<T>& at(int r, int c) {
    return chunks[r * kChunksPerRow + (c ^ (r / kWidth<T> % 8))];
  }
  __device__ T& element(int r, int c) { return lane<T>(at(r, c / kWidth<T>), c % kWidth<T>); }

  Chunk<T> chunks[kTileRows<T> * kChunksPerRow];
};

// Static shared memory holds at most 48 KB; a larger tile (the 64 KB float32 one) is
// dynamic, its size given at launch and allowed by TiledTranspose's constructor.
template <typename T, int kChunksPerRow>
constexpr bool kDynamicTile = sizeof(Tile<T, kChunksPerRow>) > 48 * 1024;

template <typename T, int kChunksPerRow>
__device__ Tile<T, kChunksPerRow>& shared_tile() {
  using TileT = Tile<T, kChunksPerRow>;
  if constexpr (kDynamicTile<T, kChunksPerRow>) {
    extern __shared__ uint4 dynamic_tile[];  // uint4: 16-byte aligned, one type for every T
    return *reinterpret_cast<TileT*>(dynamic_tile);
  } else {
    __shared__ TileT tile;
    return tile;
  }
}

struct TileOrigin {
  std::int64_t r0, c0;  // first input row and column of this block's tile
  int rows, cols;       // how many of the tile's rows and columns lie inside the matrix
};

// One tile per block on a 1D grid, row-band by row-band: no 65535 limit on either dimension.
template <typename T, int kChunksPerRow>
__device__ TileOrigin tile_origin(std::int64_t rows, std::int64_t cols,
                                  std::int64_t tiles_per_row) {
  TileOrigin t;
  t.r0 = blockIdx.x / tiles_per_row * kTileRows<T>;
  t.c0 = blockIdx.x % tiles_per_row * kTileCols<T, kChunksPerRow>;
  t.rows = static_cast<int>(min(rows - t.r0, std::int64_t{kTileRows<T>}));
  t.cols = static_cast<int>(min(cols - t.c0, std::int64_t{kTileCols<T, kChunksPerRow>}));
  return t;
}

template <typename T, int kChunksPerRow>
__global__ void __launch_bounds__(kThreads<T, kChunksPerRow>, kBlocksPerSm<T, kChunksPerRow>)
    transpose_fast_chunks(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows,
                          std::int64_t cols, std::int64_t tiles_per_row) {
  constexpr int W = kWidth<T>;
  constexpr int kThreadsPerBlock = kThreads<T, kChunksPerRow>;
  constexpr int kLoads = kTileRows<T> * kChunksPerRow / kThreadsPerBlock;  // chunks each reads
  constexpr int kRowGroups = kTileRows<T> / W;
  constexpr int kBlocks = kRowGroups * kChunksPerRow / kThreadsPerBlock;  // W x W blocks each
  Tile<T, kChunksPerRow>& tile = shared_tile<T, kChunksPerRow>();
  const TileOrigin t = tile_origin<T, kChunksPerRow>(rows, cols, tiles_per_row);

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

template <typename T, int kChunksPerRow>
__global__ void __launch_bounds__(kThreads<T, kChunksPerRow>, kBlocksPerSm<T, kChunksPerRow>)
    transpose_fast_elements(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows,
                            std::int64_t cols, std::int64_t tiles_per_row) {
  constexpr int kCols = kTileCols<T, kChunksPerRow>;
  constexpr int kThreadsPerBlock = kThreads<T, kChunksPerRow>;
  constexpr int kPerThread = kTileRows<T> * kCols / kThreadsPerBlock;
  Tile<T, kChunksPerRow>& tile = shared_tile<T, kChunksPerRow>();
  const TileOrigin t = tile_origin<T, kChunksPerRow>(rows, cols, tiles_per_row);

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
    const int c = i / kTileRows<T>, r = i % kTileRows<T>;
    if (r < t.rows && c < t.cols) out[(t.c0 + c) * rows + t.r0 + r] = tile.element(r, c);
  }
}

// The host side: picks the kernel (16-byte path or single elements) and the 1D grid of tiles.
template <typename T, int kChunksPerRow>
struct TiledTranspose {
  static constexpr std::size_t kDynamicBytes =
      kDynamicTile<T, kChunksPerRow> ? sizeof(Tile<T, kChunksPerRow>) : 0;

  TiledTranspose() {
    // Past 48 KB a kernel's dynamic shared memory must be allowed first, per kernel.
    if constexpr (kDynamicTile<T, kChunksPerRow>) {
      KB_CUDA_CHECK(cudaFuncSetAttribute(transpose_fast_chunks<T, kChunksPerRow>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(kDynamicBytes)));
      KB_CUDA_CHECK(cudaFuncSetAttribute(transpose_fast_elements<T, kChunksPerRow>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(kDynamicBytes)));
    }
  }

  static void launch(const kb::transpose::Problem<T>& p, kb::Launcher& launch, const char* name) {
    constexpr int kCols = kTileCols<T, kChunksPerRow>;
    const std::int64_t tiles_per_row = (p.cols + kCols - 1) / kCols;
    const std::int64_t tiles = (p.rows + kTileRows<T> - 1) / kTileRows<T> * tiles_per_row;
    if (tiles > std::int64_t{0x7fffffff}) {
      throw kb::Error(KB_UNSUPPORTED, std::string(name) + ": more than 2^31-1 tiles");
    }
    const bool chunked = p.rows % kWidth<T> == 0 && p.cols % kWidth<T> == 0 &&
                         aligned_16(p.in()) && aligned_16(p.out());
    launch(chunked ? transpose_fast_chunks<T, kChunksPerRow>
                   : transpose_fast_elements<T, kChunksPerRow>,
           dim3(static_cast<unsigned>(tiles)), dim3(kThreads<T, kChunksPerRow>), kDynamicBytes,
           p.in(), p.out(), p.rows, p.cols, tiles_per_row);
  }

  static bool aligned_16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }
};

}  // namespace
