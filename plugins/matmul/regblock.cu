// A serious SIMT kernel: each thread keeps a register tile of C (float32 8x16, float64 8x8), so
// every value read from shared memory feeds 8 or 16 multiply-adds (the naive kernels feed 1 per
// global load). Per step of BK along K:
//   - B goes global -> shared memory by cp.async, 16 bytes at a time, into the buffer not being
//     read; A is loaded into registers (16-byte loads) and stored transposed (k-major), so a
//     thread's 8 rows of A at one k are two 16-byte shared loads, like its columns of B. Both are
//     issued before the current step's arithmetic so their latency hides behind it; two buffers,
//     one barrier per step;
//   - warps own 64-row sub-tiles, each thread's rows are 2 quads 32 apart and its columns quads
//     16 apart, so the shared loads of a warp hit distinct banks or broadcast.
// Blocks wholly inside the matrices (and K a whole number of steps, rows 16-byte aligned) take a
// path without bounds checks; edge blocks check every access, zero-filling outside. The checks
// in every block cost 7% at 4096^3 (H100, 2026-11-24: 3106 against 2877 us, same tile).
// Tile shapes, measured in one run against cublasSgemm (2662-2699 us) at 4096^3 on an H100
// (a standalone benchmark, 2026-11-25): 128x256 tiles of 8x16 per thread, B by cp.async, 1 block
// per SM (221 registers): 2774-2781 us; 128x128 tiles of 8x8, 2 blocks per SM (the 128-register
// bound, version 1 of this plugin): 2886; 128x128 with 128 threads of 8x16: 2868; 256x128: 2878;
// BK 8 or 32 instead of 16: 3208 and 2873. As a plugin, in kbench's goal sweep: 2776.8 us against
// cuBLAS's 2661.5 (0.958), 8192^3 0.963.
// Indices inside the kernel are 32-bit (offsets into the matrices 64-bit).
#include <kbench/families/matmul.hpp>
#include <kbench/support/async_copy.cuh>

#include <cstdint>
#include <cstdio>

namespace {

template <typename T>
struct Shape;
template <>
struct Shape<float> {
  static constexpr int kM = 128, kN = 256, kK = 16, kWarpM = 64, kWarpN = 64;
};
template <>
struct Shape<double> {  // an 8x8 tile's accumulators alone fill 128 registers
  static constexpr int kM = 128, kN = 128, kK = 8, kWarpM = 64, kWarpN = 32;
};
template <typename T>
constexpr int kThreads = Shape<T>::kM / Shape<T>::kWarpM * (Shape<T>::kN / Shape<T>::kWarpN) * 32;
// Keeps the transposed stores of A off one bank, rows still 16-byte aligned.
constexpr int kPadA = 4;

template <typename T>
struct Tiles {
  T a[2][Shape<T>::kK][Shape<T>::kM + kPadA];  // transposed: [k][m]
  T b[2][Shape<T>::kK][Shape<T>::kN];
};

// Four consecutive elements, moved by one (float) or two (double) 16-byte accesses.
template <typename T>
struct alignas(4 * sizeof(T)) Quad {
  T v[4];
};

// The four elements at `at`, elements col..col+3 of a row of `cols` elements; zeros past the end
// or for a row outside the matrix. `whole` says that the row length keeps every quad aligned.
template <typename T>
__device__ Quad<T> load_quad(const T* at, int col, int cols, bool row_inside, bool whole) {
  if (row_inside && whole && col + 4 <= cols) return *reinterpret_cast<const Quad<T>*>(at);
  Quad<T> q;
#pragma unroll
  for (int e = 0; e < 4; ++e) q.v[e] = row_inside && col + e < cols ? at[e] : T(0);
  return q;
}

template <typename T>
__device__ void store_quad(T* at, int col, int cols, bool whole, const Quad<T>& q) {
  if (whole && col + 4 <= cols) {
    *reinterpret_cast<Quad<T>*>(at) = q;
    return;
  }
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    if (col + e < cols) at[e] = q.v[e];
  }
}

// The quad at `from` into shared memory: its first `count` elements, zeros after them. `whole`:
// `from` is 16-byte aligned. `safe` is any readable address, given when nothing is to be read.
template <typename T>
__device__ void copy_quad_async(T* to, const T* from, int count, bool whole, const T* safe) {
  constexpr int kPerCopy = 16 / sizeof(T);
  if (whole && (count == 4 || count == 0)) {
#pragma unroll
    for (int h = 0; h < 4; h += kPerCopy) {
      kb::copy_async<16>(to + h, count ? from + h : safe, count ? 16 : 0);
    }
    return;
  }
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    const bool inside = e < count;
    kb::copy_async<sizeof(T)>(to + e, inside ? from + e : safe, inside ? sizeof(T) : 0);
  }
}

// One block's tile of C. kChecked: the tile may reach past M, N or K, or rows may not be
// 16-byte aligned (whole_a, whole_b, whole_c say which are).
template <typename T, bool kChecked>
__device__ __forceinline__ void tile_product(const T* __restrict__ a, const T* __restrict__ b,
                                             T* __restrict__ c, int M, int N, int K, bool whole_a,
                                             bool whole_b, bool whole_c, Tiles<T>& tiles) {
  using S = Shape<T>;
  constexpr int kThreadsPerBlock = kThreads<T>;
  constexpr int kQuadsM = S::kWarpM / 32, kQuadsN = S::kWarpN / 16;  // per thread
  constexpr int kTileM = 4 * kQuadsM, kTileN = 4 * kQuadsN;
  // The quads a thread copies are the same in every step: kQuadsA in one column of the A tile,
  // kRowsA rows apart, and kQuadsB in one column of the B tile, kRowsB rows apart.
  constexpr int kQuadsA = S::kM * S::kK / 4 / kThreadsPerBlock;
  constexpr int kRowsA = kThreadsPerBlock / (S::kK / 4);
  constexpr int kQuadsB = S::kK * S::kN / 4 / kThreadsPerBlock;
  constexpr int kRowsB = kThreadsPerBlock / (S::kN / 4);

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int m0 = blockIdx.y * S::kM, n0 = blockIdx.x * S::kN;
  const int a_row = tid / (S::kK / 4), a_col = 4 * (tid % (S::kK / 4));
  const int b_row = tid / (S::kN / 4), b_col = 4 * (tid % (S::kN / 4));
  // The thread's first row and column of C in the block's tile.
  const int tm = (warp / (S::kN / S::kWarpN)) * S::kWarpM + (lane / 4) * 4;
  const int tn = (warp % (S::kN / S::kWarpN)) * S::kWarpN + (lane % 4) * 4;

  Quad<T> next_a[kQuadsA];
  auto load_step = [&](int k0, int buffer) {
#pragma unroll
    for (int q = 0; q < kQuadsA; ++q) {
      const int row = m0 + a_row + q * kRowsA, col = k0 + a_col;
      if constexpr (kChecked) {
        next_a[q] = load_quad(a + std::int64_t{row < M ? row : 0} * K + col, col, K, row < M,
                              whole_a);
      } else {
        next_a[q] = *reinterpret_cast<const Quad<T>*>(a + std::int64_t{row} * K + col);
      }
    }
#pragma unroll
    for (int q = 0; q < kQuadsB; ++q) {
      const int row = k0 + b_row + q * kRowsB, col = n0 + b_col;
      T* to = &tiles.b[buffer][b_row + q * kRowsB][b_col];
      if constexpr (kChecked) {
        const int count = row < K ? max(0, min(4, N - col)) : 0;
        copy_quad_async(to, b + std::int64_t{count ? row : 0} * N + (count ? col : 0), count,
                        whole_b, b);
      } else {
        copy_quad_async(to, b + std::int64_t{row} * N + col, 4, true, b);
      }
    }
    kb::copy_async_commit();
  };
  auto store_step = [&](int buffer) {
#pragma unroll
    for (int q = 0; q < kQuadsA; ++q) {
#pragma unroll
      for (int e = 0; e < 4; ++e) tiles.a[buffer][a_col + e][a_row + q * kRowsA] = next_a[q].v[e];
    }
    kb::copy_async_wait<0>();  // the group committed with these copies
  };

  T acc[kTileM][kTileN] = {};
  const int steps = (K + S::kK - 1) / S::kK;
  load_step(0, 0);
  store_step(0);
  __syncthreads();
  for (int s = 0; s < steps; ++s) {
    const int buffer = s & 1;
    // The other buffer was last read before the previous barrier, so it is free to overwrite.
    if (s + 1 < steps) load_step((s + 1) * S::kK, buffer ^ 1);
#pragma unroll
    for (int k = 0; k < S::kK; ++k) {
      Quad<T> a_part[kQuadsM], b_part[kQuadsN];
#pragma unroll
      for (int q = 0; q < kQuadsM; ++q) {
        a_part[q] = *reinterpret_cast<const Quad<T>*>(&tiles.a[buffer][k][tm + 32 * q]);
      }
#pragma unroll
      for (int q = 0; q < kQuadsN; ++q) {
        b_part[q] = *reinterpret_cast<const Quad<T>*>(&tiles.b[buffer][k][tn + 16 * q]);
      }
#pragma unroll
      for (int i = 0; i < kTileM; ++i) {
#pragma unroll
        for (int j = 0; j < kTileN; ++j) {
          acc[i][j] += a_part[i / 4].v[i % 4] * b_part[j / 4].v[j % 4];
        }
      }
    }
    if (s + 1 < steps) store_step(buffer ^ 1);
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < kTileM; ++i) {
    const int row = m0 + tm + (i / 4) * 32 + i % 4;
    if (kChecked && row >= M) continue;
#pragma unroll
    for (int h = 0; h < kQuadsN; ++h) {
      const int col = n0 + tn + 16 * h;
      const Quad<T> out = {
          {acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]}};
      T* to = c + std::int64_t{row} * N + col;
      if constexpr (kChecked) {
        store_quad(to, col, N, whole_c, out);
      } else {
        *reinterpret_cast<Quad<T>*>(to) = out;
      }
    }
  }
}

// `aligned`: a, b and c start on a quad's alignment, so rows of a length divisible by 4 do too.
template <typename T>
__global__ void __launch_bounds__(kThreads<T>, 1)
    matmul_regblock(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, int M,
                    int N, int K, bool aligned) {
  using S = Shape<T>;
  extern __shared__ uint4 shared[];  // uint4: 16-byte aligned, one type for both T
  Tiles<T>& tiles = *reinterpret_cast<Tiles<T>*>(shared);
  const bool whole_a = aligned && K % 4 == 0, whole_b = aligned && N % 4 == 0;
  const bool inside = whole_a && whole_b && K % S::kK == 0 &&
                      (blockIdx.y + 1) * S::kM <= M && (blockIdx.x + 1) * S::kN <= N;
  if (inside) {
    tile_product<T, false>(a, b, c, M, N, K, true, true, true, tiles);
  } else {
    tile_product<T, true>(a, b, c, M, N, K, whole_a, whole_b, whole_b, tiles);
  }
}

int accepts(const kb_case* c, kb_message* why) {
  constexpr std::int64_t kLimit = std::int64_t{1} << 30;
  constexpr int kTileRows = Shape<float>::kM;  // both types
  if (c->shape[0] >= kLimit || c->shape[1] >= kLimit || c->shape[2] >= kLimit ||
      (c->shape[0] + kTileRows - 1) / kTileRows > 65535) {
    std::snprintf(why->text, sizeof why->text,
                  "dimensions must be below 2^30 (32-bit indices), M below 65536 tiles of %d",
                  kTileRows);
    return 0;
  }
  return 1;
}

template <typename T>
struct RegBlock {
  RegBlock() {
    // Past 48 KB (float32's tiles) a kernel's dynamic shared memory must be allowed first.
    KB_CUDA_CHECK(cudaFuncSetAttribute(matmul_regblock<T>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(sizeof(Tiles<T>))));
  }

  static void launch(const kb::matmul::Operands<T>& p, kb::Launcher& launch) {
    using S = Shape<T>;
    const dim3 grid((p.N + S::kN - 1) / S::kN, (p.M + S::kM - 1) / S::kM);
    const bool aligned = quad_aligned(p.a()) && quad_aligned(p.b()) && quad_aligned(p.c());
    launch(matmul_regblock<T>, grid, dim3(kThreads<T>), sizeof(Tiles<T>), p.a(), p.b(), p.c(),
           static_cast<int>(p.M), static_cast<int>(p.N), static_cast<int>(p.K), aligned);
  }

  static bool quad_aligned(const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) % sizeof(Quad<T>) == 0;
  }
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, RegBlock, kb::FloatDTypes,
                {.name = "matmul/regblock",
                 .version = "2",
                 .description = "128x256 block tiles (float64 128x128), 8x16 register tiles per "
                                "thread (float64 8x8), B by cp.async, A transposed in shared "
                                "memory, double-buffered",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_SIMT,
                 .accepts = accepts})
