// The tile transpose behind transpose/fast. A tile is 256 bytes of an output row tall (64 4-byte
// elements, 32 float64) and a parameter wide: the 16-byte chunks it reads of each input row. Each
// thread always moves 4 chunks, so chunks in flight per thread and threads per SM (2048) do not
// change with the width.
//
// Why 256 bytes tall: measured on an H100 in one run (2026-11-25, a standalone benchmark beside
// cudaMemcpyAsync), float32 8192x8192 reached 0.957 of the copy with 512-byte-tall tiles (64 KB
// of shared memory, 2 blocks per SM) and 0.970-0.973 with 256-byte-tall ones (16-32 KB, 4-8
// blocks per SM); 8192x4096 0.963 -> 0.977-0.979, float64 0.967-0.971 -> 0.977-0.982. 128-byte
// tiles, either way, fell to 0.934-0.945. The copy itself runs on the DMA engines (Nsight Compute
// sees no kernel for it); copies issued by the SMs reached 0.937 (16-byte loads and stores) and
// 0.949 (the bulk copy engine, cp.async.bulk) of it, so a transpose that moves the fewest DRAM
// bytes (Nsight Compute: 268 MB read at 8192x8192 float32) has little more to take.
//
//  - every global access is 16 bytes wide (LDG.128 / STG.128) and a warp's accesses cover whole
//    128-byte lines: whole tile rows per load, 256-byte runs of output rows per store;
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
constexpr int kTileRows = 256 / sizeof(T);  // a tile column is 256 bytes of an output row
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
  static_assert(kTileRows<T> / kWidth<T> >= 8, "8 groups of W rows per period of the swizzle");

  // Row r's chunk c lives at c ^ (r / W % 8): the 8 chunks 8 neighbouring threads store along a
  // row stay a permutation of their aligned group of 8, and the 8 chunks they later read down a
  // chunk column (rows W apart, one per W-row group) land in 8 different groups.
  __device__ Chunk<T>& at(int r, int c) {
    return chunks[r * kChunksPerRow + (c ^ (r / kWidth<T> % 8))];
  }
  __device__ T& element(int r, int c) { return lane<T>(at(r, c / kWidth<T>), c % kWidth<T>); }

  Chunk<T> chunks[kTileRows<T> * kChunksPerRow];
};

template <typename T, int kChunksPerRow>
__device__ Tile<T, kChunksPerRow>& shared_tile() {
  __shared__ Tile<T, kChunksPerRow> tile;  // at most 32 KB
  return tile;
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
  TiledTranspose() {
    // Up to 8 tiles of 16 KB per SM: the largest shared-memory carveout keeps every block the
    // threads allow resident (the default may leave L1 more and the SM fewer blocks).
    KB_CUDA_CHECK(cudaFuncSetAttribute(transpose_fast_chunks<T, kChunksPerRow>,
                                       cudaFuncAttributePreferredSharedMemoryCarveout,
                                       cudaSharedmemCarveoutMaxShared));
    KB_CUDA_CHECK(cudaFuncSetAttribute(transpose_fast_elements<T, kChunksPerRow>,
                                       cudaFuncAttributePreferredSharedMemoryCarveout,
                                       cudaSharedmemCarveoutMaxShared));
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
           dim3(static_cast<unsigned>(tiles)), dim3(kThreads<T, kChunksPerRow>), 0, p.in(),
           p.out(), p.rows, p.cols, tiles_per_row);
  }

  static bool aligned_16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }
};

}  // namespace
