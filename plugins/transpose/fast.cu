// The fastest transpose we have for Hopper. A block moves a tile of 256-byte rows whose columns
// become 512-byte output rows: 128x64 for 4-byte types (512 threads), 64x32 for float64 (256):
//  - every global access is 16 bytes wide (LDG.128 / STG.128) and a warp's accesses cover whole
//    128-byte lines: two 256-byte tile rows per load, one 512-byte output row per store;
//  - the output is the strided side, and each tile column becomes one 512-byte stretch of an
//    output row: with 64-row float32 tiles (256-byte stretches) the H200 reached 0.921 of copy
//    at 8192x8192, float64 at 8192x4096, read exactly the same way but written in 512-byte
//    stretches, 0.931;
//  - each thread loads its 4 chunks into registers before it stores any, and a full SM holds
//    2048 threads: 128 KB in flight per SM, several times what covering the DRAM latency needs;
//  - the transpose happens in two steps: the tile goes to shared memory as rows of 16-byte
//    chunks, then each thread reads a W x W block of elements (W = 16 / sizeof(T)) as W chunks
//    down a column and transposes it in registers. A chunk's position is XOR-swizzled by its row
//    so that in both steps the 8 threads of a 16-byte shared-memory phase touch 8 different bank
//    groups (no conflicts; padding would break the 16-byte alignment).
// The 16-byte path needs rows and cols divisible by W (every row then starts aligned); the tiles
// at the right and bottom edges take it too, predicated per chunk. Shapes that are not divisible
// (1111x113, 4097x1) take a second kernel that moves single elements through the same tile. One
// launch runs exactly one of the two kernels.
#include <kbench/families/transpose.hpp>

#include <cstdint>

namespace {

constexpr int kChunksPerRow = 16;  // 16 chunks of 16 bytes: 256 bytes of each tile row
template <typename T>
constexpr int kTileRows = 512 / sizeof(T);  // a tile column is 512 bytes of an output row
template <typename T>
constexpr int kThreads = kTileRows<T> * kChunksPerRow / 4;  // 4 chunks per thread
template <typename T>
constexpr int kBlocksPerSm = 2048 / kThreads<T>;  // a full SM: ptxas fits both kernels in 32
                                                  // registers without spilling

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
constexpr int kTileCols = kChunksPerRow * kWidth<T>;

template <typename T>
__device__ T& lane(Chunk<T>& chunk, int i) {
  return reinterpret_cast<T*>(&chunk)[i];
}

template <typename T>
struct Tile {
  // Row r's chunk c lives at c ^ (r / W % 8): the 8 chunks 8 neighbouring threads store along a
  // row stay a permutation of their aligned group of 8, and the 8 chunks they later read down a
  // chunk column (rows W apart, one per W-row group) land in 8 different groups.
  __device__ Chunk<T>& at(int r, int c) {
    return chunks[r * kChunksPerRow + (c ^ (r / kWidth<T> % 8))];
  }
  __device__ T& element(int r, int c) { return lane<T>(at(r, c / kWidth<T>), c % kWidth<T>); }

  Chunk<T> chunks[kTileRows<T> * kChunksPerRow];
};

struct TileOrigin {
  std::int64_t r0, c0;  // first input row and column of this block's tile
  int rows, cols;       // how many of the tile's rows and columns lie inside the matrix
};

// One tile per block on a 1D grid, row-band by row-band: no 65535 limit on either dimension.
template <typename T>
__device__ TileOrigin tile_origin(std::int64_t rows, std::int64_t cols,
                                  std::int64_t tiles_per_row) {
  TileOrigin t;
  t.r0 = blockIdx.x / tiles_per_row * kTileRows<T>;
  t.c0 = blockIdx.x % tiles_per_row * kTileCols<T>;
  t.rows = static_cast<int>(min(rows - t.r0, std::int64_t{kTileRows<T>}));
  t.cols = static_cast<int>(min(cols - t.c0, std::int64_t{kTileCols<T>}));
  return t;
}

template <typename T>
__global__ void __launch_bounds__(kThreads<T>, kBlocksPerSm<T>)
    transpose_fast_chunks(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows,
                          std::int64_t cols, std::int64_t tiles_per_row) {
  constexpr int W = kWidth<T>;
  constexpr int kLoads = kTileRows<T> * kChunksPerRow / kThreads<T>;  // chunks each thread reads
  constexpr int kRowGroups = kTileRows<T> / W;
  constexpr int kBlocks = kRowGroups * kChunksPerRow / kThreads<T>;  // W x W blocks per thread
  __shared__ Tile<T> tile;
  const TileOrigin t = tile_origin<T>(rows, cols, tiles_per_row);

  // Consecutive threads read consecutive chunks of a tile row.
  Chunk<T> loaded[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    const int i = threadIdx.x + k * kThreads<T>;
    const int r = i / kChunksPerRow, c = i % kChunksPerRow;
    if (r < t.rows && c * W < t.cols) {
      loaded[k] = *reinterpret_cast<const Chunk<T>*>(in + (t.r0 + r) * cols + t.c0 + c * W);
    }
  }
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    const int i = threadIdx.x + k * kThreads<T>;
    const int r = i / kChunksPerRow, c = i % kChunksPerRow;
    if (r < t.rows && c * W < t.cols) tile.at(r, c) = loaded[k];
  }
  __syncthreads();

  // Consecutive threads take consecutive W-row groups of one chunk column: consecutive chunks of
  // an output row.
#pragma unroll
  for (int k = 0; k < kBlocks; ++k) {
    const int i = threadIdx.x + k * kThreads<T>;
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

template <typename T>
__global__ void __launch_bounds__(kThreads<T>, kBlocksPerSm<T>)
    transpose_fast_elements(const T* __restrict__ in, T* __restrict__ out, std::int64_t rows,
                            std::int64_t cols, std::int64_t tiles_per_row) {
  constexpr int kCols = kTileCols<T>;
  constexpr int kPerThread = kTileRows<T> * kCols / kThreads<T>;
  __shared__ Tile<T> tile;
  const TileOrigin t = tile_origin<T>(rows, cols, tiles_per_row);

#pragma unroll 4
  for (int k = 0; k < kPerThread; ++k) {
    const int i = threadIdx.x + k * kThreads<T>;
    const int r = i / kCols, c = i % kCols;
    if (r < t.rows && c < t.cols) tile.element(r, c) = in[(t.r0 + r) * cols + t.c0 + c];
  }
  __syncthreads();
#pragma unroll 4
  for (int k = 0; k < kPerThread; ++k) {
    const int i = threadIdx.x + k * kThreads<T>;
    const int c = i / kTileRows<T>, r = i % kTileRows<T>;
    if (r < t.rows && c < t.cols) out[(t.c0 + c) * rows + t.r0 + r] = tile.element(r, c);
  }
}

template <typename T>
struct Fast {
  static void launch(const kb::transpose::Problem<T>& p, kb::Launcher& launch) {
    const std::int64_t tiles_per_row = (p.cols + kTileCols<T> - 1) / kTileCols<T>;
    const std::int64_t tiles = (p.rows + kTileRows<T> - 1) / kTileRows<T> * tiles_per_row;
    if (tiles > std::int64_t{0x7fffffff}) {
      throw kb::Error(KB_UNSUPPORTED, "transpose/fast: more than 2^31-1 tiles");
    }
    const bool chunked = p.rows % kWidth<T> == 0 && p.cols % kWidth<T> == 0 &&
                         aligned_16(p.in()) && aligned_16(p.out());
    launch(chunked ? transpose_fast_chunks<T> : transpose_fast_elements<T>,
           dim3(static_cast<unsigned>(tiles)), dim3(kThreads<T>), 0, p.in(), p.out(), p.rows,
           p.cols, tiles_per_row);
  }

  static bool aligned_16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }
};

}  // namespace

KBENCH_PLUGIN(kb::transpose::Problem, Fast, kb::AllDTypes,
              {"transpose/fast", "2",
               "256-byte x 512-byte tile (128x64 4-byte, 64x32 float64), 16-byte loads/stores, "
               "swizzled shared tile, register transposes",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE})
