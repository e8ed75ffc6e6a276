// A serious SIMT kernel: each block computes a 128x128 tile of C, each of its 256 threads an 8x8
// register tile, so every value read from shared memory feeds 8 multiply-adds (the naive kernels
// feed 1 per global load). Per step of BK along K:
//   - global -> registers: 16-byte loads of the next A and B tiles (scalar, zero-filled, at the
//     edges of the matrices and when a row length is not a multiple of 4), issued before the
//     current tile's arithmetic so their latency hides behind it;
//   - registers -> shared memory: A stored transposed (k-major), so a thread's 8 rows of A at one
//     k are two 16-byte shared loads, like its 8 columns of B; two buffers, one barrier per step;
//   - warps own 64x32 sub-tiles and each thread's 8x8 is split into 4x4 quarters 32 rows / 16
//     columns apart, so the shared loads of a warp hit distinct banks or broadcast.
// Float32 and float64 share the kernel. Float32: BK = 16, at most 128 registers (no spills), two
// blocks per SM. Float64: BK = 8, its 8x8 accumulators alone fill 128 registers, one block per SM.
// Indices inside the kernel are 32-bit (offsets into the matrices 64-bit).
#include <kbench/families/matmul.hpp>

#include <cstdio>

namespace {

constexpr int kTileM = 128, kTileN = 128, kThreads = 256;
constexpr int kWarpTileM = 64, kWarpTileN = 32;  // 2 x 4 warps
constexpr int kPadA = 4;  // keeps the transposed stores of A off one bank, rows still 16-byte aligned

template <typename T>
struct Depth;
template <>
struct Depth<float> {
  static constexpr int kTileK = 16, kBlocksPerSM = 2;
};
template <>
struct Depth<double> {
  static constexpr int kTileK = 8, kBlocksPerSM = 1;
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

template <typename T>
__global__ void __launch_bounds__(kThreads, Depth<T>::kBlocksPerSM)
    matmul_regblock(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, int M,
                    int N, int K) {
  constexpr int kTileK = Depth<T>::kTileK;
  // The quads a thread copies are the same in every step: kQuadsA in one column of the A tile,
  // kRowsA rows apart, and kQuadsB in one column of the B tile, kRowsB rows apart.
  constexpr int kQuadsA = kTileM * kTileK / 4 / kThreads, kRowsA = kThreads / (kTileK / 4);
  constexpr int kQuadsB = kTileK * kTileN / 4 / kThreads, kRowsB = kThreads / (kTileN / 4);
  __shared__ __align__(32) T a_tile[2][kTileK][kTileM + kPadA];  // transposed: [k][m]
  __shared__ __align__(32) T b_tile[2][kTileK][kTileN];

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int m0 = blockIdx.y * kTileM, n0 = blockIdx.x * kTileN;
  const int a_row = tid / (kTileK / 4), a_col = 4 * (tid % (kTileK / 4));
  const int b_row = tid / (kTileN / 4), b_col = 4 * (tid % (kTileN / 4));
  const bool whole_a = K % 4 == 0, whole_b = N % 4 == 0;
  // The thread's first row and column of C in the block's tile; its other quarters are +32, +16.
  const int tm = (warp / 4) * kWarpTileM + (lane / 4) * 4;
  const int tn = (warp % 4) * kWarpTileN + (lane % 4) * 4;

  Quad<T> next_a[kQuadsA], next_b[kQuadsB];
  auto load_step = [&](int k0) {
#pragma unroll
    for (int q = 0; q < kQuadsA; ++q) {
      const int row = m0 + a_row + q * kRowsA;
      next_a[q] = load_quad(a + std::int64_t{row < M ? row : 0} * K + k0 + a_col, k0 + a_col, K,
                            row < M, whole_a);
    }
#pragma unroll
    for (int q = 0; q < kQuadsB; ++q) {
      const int row = k0 + b_row + q * kRowsB;
      next_b[q] = load_quad(b + std::int64_t{row < K ? row : 0} * N + n0 + b_col, n0 + b_col, N,
                            row < K, whole_b);
    }
  };
  auto store_step = [&](int buffer) {
#pragma unroll
    for (int q = 0; q < kQuadsA; ++q) {
#pragma unroll
      for (int e = 0; e < 4; ++e) a_tile[buffer][a_col + e][a_row + q * kRowsA] = next_a[q].v[e];
    }
#pragma unroll
    for (int q = 0; q < kQuadsB; ++q) {
      *reinterpret_cast<Quad<T>*>(&b_tile[buffer][b_row + q * kRowsB][b_col]) = next_b[q];
    }
  };

  T acc[8][8] = {};
  const int steps = (K + kTileK - 1) / kTileK;
  load_step(0);
  store_step(0);
  __syncthreads();
  for (int s = 0; s < steps; ++s) {
    const int buffer = s & 1;
    if (s + 1 < steps) load_step((s + 1) * kTileK);
#pragma unroll
    for (int k = 0; k < kTileK; ++k) {
      const Quad<T> a_lo = *reinterpret_cast<const Quad<T>*>(&a_tile[buffer][k][tm]);
      const Quad<T> a_hi = *reinterpret_cast<const Quad<T>*>(&a_tile[buffer][k][tm + 32]);
      const Quad<T> b_lo = *reinterpret_cast<const Quad<T>*>(&b_tile[buffer][k][tn]);
      const Quad<T> b_hi = *reinterpret_cast<const Quad<T>*>(&b_tile[buffer][k][tn + 16]);
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        const T ai = i < 4 ? a_lo.v[i] : a_hi.v[i - 4];
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += ai * (j < 4 ? b_lo.v[j] : b_hi.v[j - 4]);
      }
    }
    // The other buffer was last read before the previous barrier, so it is free to overwrite.
    if (s + 1 < steps) store_step(buffer ^ 1);
    __syncthreads();
  }

  const bool whole_c = N % 4 == 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = m0 + tm + (i / 4) * 32 + i % 4;
    if (row >= M) continue;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = n0 + tn + 16 * h;
      const Quad<T> out = {{acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]}};
      store_quad(c + std::int64_t{row} * N + col, col, N, whole_c, out);
    }
  }
}

int accepts(const kb_case* c, kb_message* why) {
  constexpr std::int64_t kLimit = std::int64_t{1} << 30;
  if (c->shape[0] >= kLimit || c->shape[1] >= kLimit || c->shape[2] >= kLimit ||
      (c->shape[0] + kTileM - 1) / kTileM > 65535) {
    std::snprintf(why->text, sizeof why->text,
                  "dimensions must be below 2^30 (32-bit indices), M below 65536 tiles of %d",
                  kTileM);
    return 0;
  }
  return 1;
}

template <typename T>
struct RegBlock {
  static void launch(const kb::matmul::Problem<T>& p, kb::Launcher& launch) {
    const dim3 grid((p.N + kTileN - 1) / kTileN, (p.M + kTileM - 1) / kTileM);
    launch(matmul_regblock<T>, grid, dim3(kThreads), 0, p.a(), p.b(), p.c(), p.M, p.N, p.K);
  }
};

}  // namespace

KBENCH_PLUGIN(kb::matmul::Problem, RegBlock, kb::FloatDTypes,
              {"matmul/regblock", "1",
               "128x128 block tiles, 8x8 register tiles per thread, double-buffered shared memory",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_SIMT, "", accepts})
