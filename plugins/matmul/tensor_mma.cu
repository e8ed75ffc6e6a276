// matmul/tensor_mma: float32 inputs multiplied in TF32 by the warp-level tensor-core instruction
// mma.sync.m16n8k8 (any GPU from sm_80 on; on Hopper the slower path next to wgmma).
//
// A block computes a 128 x 128 tile of C with 8 warps (2 x 4, each 64 x 32: 4 x 4 mma tiles of
// 16 x 8, 64 accumulators per thread). A and B stream through three stages of shared memory by
// cp.async, which zero-fills whatever lies outside the matrices, so partial tiles need no other
// code; only the stores of C are guarded. The operands go to the tensor cores as raw float32 bits:
// the hardware reads the TF32 part (truncation), as wgmma does with what TMA brings.
#include <kbench/families/matmul.hpp>
#include <kbench/support/async_copy.cuh>

#include <cstdint>
#include <limits>

namespace {

constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
constexpr int kBlockK = 32;
constexpr int kStages = 3;
constexpr int kThreads = 256;
constexpr int kWarpsN = 4;  // warps side by side along N; 2 along M
constexpr int kWarpM = 64;
constexpr int kWarpN = 32;
constexpr int kTilesM = kWarpM / 16;  // mma tiles per warp
constexpr int kTilesN = kWarpN / 8;
// Row pitches in floats, padded so that the fragment reads of a warp hit 32 different banks:
// A is read as (row g, column t) for g < 8, t < 4, i.e. bank 4g + t with a pitch of 36; B as
// (row t, column g), i.e. bank 8t + g with a pitch of 136. Both keep rows on 16 bytes for cp.async.
constexpr int kPitchA = kBlockK + 4;
constexpr int kPitchB = kBlockN + 8;
constexpr int kStageFloatsA = kBlockM * kPitchA;
constexpr int kStageFloatsB = kBlockK * kPitchB;
constexpr std::size_t kSharedBytes =
    sizeof(float) * static_cast<std::size_t>(kStages) * (kStageFloatsA + kStageFloatsB);

// The 16 single-float copies per operand, unrolled, would each hold a 64-bit address at once and
// spill; the four 16-byte ones fit.
template <int kWidth>
constexpr int kUnrollCopies = kWidth == 4 ? 4 : 1;

// One K slice of both tiles into a stage. kWidth = 4 needs K and N multiples of 4 (every 16-byte
// group then lies wholly inside or wholly outside the matrix, and starts on 16 bytes).
template <int kWidth>
__device__ inline void load_stage(float* a_stage, float* b_stage, const float* a, const float* b,
                                  int M, int N, int K, int m0, int n0, int k0) {
  constexpr int a_groups_per_row = kBlockK / kWidth;
  static_assert(kBlockM * a_groups_per_row % kThreads == 0, "every thread copies as many");
#pragma unroll kUnrollCopies<kWidth>
  for (int n = 0; n < kBlockM * a_groups_per_row / kThreads; ++n) {
    const int i = static_cast<int>(threadIdx.x) + n * kThreads;
    const int row = i / a_groups_per_row;
    const int col = (i % a_groups_per_row) * kWidth;
    const bool inside = m0 + row < M && k0 + col < K;
    kb::copy_async<4 * kWidth>(a_stage + row * kPitchA + col,
                       inside ? a + static_cast<std::int64_t>(m0 + row) * K + k0 + col : a,
                       inside ? 4 * kWidth : 0);
  }
  constexpr int b_groups_per_row = kBlockN / kWidth;
  static_assert(kBlockK * b_groups_per_row % kThreads == 0, "every thread copies as many");
#pragma unroll kUnrollCopies<kWidth>
  for (int n = 0; n < kBlockK * b_groups_per_row / kThreads; ++n) {
    const int i = static_cast<int>(threadIdx.x) + n * kThreads;
    const int row = i / b_groups_per_row;
    const int col = (i % b_groups_per_row) * kWidth;
    const bool inside = k0 + row < K && n0 + col < N;
    kb::copy_async<4 * kWidth>(b_stage + row * kPitchB + col,
                       inside ? b + static_cast<std::int64_t>(k0 + row) * N + n0 + col : b,
                       inside ? 4 * kWidth : 0);
  }
}

__device__ inline void mma_tf32(float (&d)[4], const std::uint32_t (&a)[4],
                                const std::uint32_t (&b)[2]) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

template <int kWidth>
__global__ void __launch_bounds__(kThreads, 2)
    mma_matmul(const float* a, const float* b, float* c, int M, int N, int K) {
  extern __shared__ float4 shared_raw[];
  float* const a_stages = reinterpret_cast<float*>(shared_raw);
  float* const b_stages = a_stages + kStages * kStageFloatsA;

  const int m0 = static_cast<int>(blockIdx.y) * kBlockM;
  const int n0 = static_cast<int>(blockIdx.x) * kBlockN;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int g = lane / 4;  // the "group" of the mma fragment layouts
  const int t = lane % 4;  // the thread within the group
  const int warp_m = (warp / kWarpsN) * kWarpM;
  const int warp_n = (warp % kWarpsN) * kWarpN;
  const int k_tiles = (K + kBlockK - 1) / kBlockK;

  float d[kTilesM][kTilesN][4];
#pragma unroll
  for (int i = 0; i < kTilesM; ++i)
#pragma unroll
    for (int j = 0; j < kTilesN; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) d[i][j][e] = 0.0f;

  // One commit group per K slice, empty ones included, so that "all but the newest
  // kStages - 2 groups done" always means "slice kt has landed".
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) {
      load_stage<kWidth>(a_stages + s * kStageFloatsA, b_stages + s * kStageFloatsB, a, b, M, N, K,
                         m0, n0, s * kBlockK);
    }
    kb::copy_async_commit();
  }

  for (int kt = 0; kt < k_tiles; ++kt) {
    kb::copy_async_wait<kStages - 2>();
    // Slice kt is visible to every thread, and every warp is done with slice kt - 1, whose stage
    // the next load overwrites.
    __syncthreads();
    const int next = kt + kStages - 1;
    if (next < k_tiles) {
      load_stage<kWidth>(a_stages + (next % kStages) * kStageFloatsA,
                         b_stages + (next % kStages) * kStageFloatsB, a, b, M, N, K, m0, n0,
                         next * kBlockK);
    }
    kb::copy_async_commit();

    const float* as = a_stages + (kt % kStages) * kStageFloatsA + warp_m * kPitchA;
    const float* bs = b_stages + (kt % kStages) * kStageFloatsB + warp_n;
#pragma unroll
    for (int k = 0; k < kBlockK; k += 8) {
      // Fragments of m16n8k8 (PTX ISA): A a0 (g, t), a1 (g + 8, t), a2 (g, t + 4),
      // a3 (g + 8, t + 4); B b0 (k t, n g), b1 (k t + 4, n g).
      std::uint32_t af[kTilesM][4];
      std::uint32_t bf[kTilesN][2];
#pragma unroll
      for (int i = 0; i < kTilesM; ++i) {
        const float* p = as + (i * 16 + g) * kPitchA + k + t;
        af[i][0] = __float_as_uint(p[0]);
        af[i][1] = __float_as_uint(p[8 * kPitchA]);
        af[i][2] = __float_as_uint(p[4]);
        af[i][3] = __float_as_uint(p[8 * kPitchA + 4]);
      }
#pragma unroll
      for (int j = 0; j < kTilesN; ++j) {
        const float* p = bs + (k + t) * kPitchB + j * 8 + g;
        bf[j][0] = __float_as_uint(p[0]);
        bf[j][1] = __float_as_uint(p[4 * kPitchB]);
      }
#pragma unroll
      for (int i = 0; i < kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < kTilesN; ++j) mma_tf32(d[i][j], af[i], bf[j]);
    }
  }
  kb::copy_async_wait<0>();

  // Accumulator fragment: d0 (g, 2t), d1 (g, 2t + 1), d2 (g + 8, 2t), d3 (g + 8, 2t + 1).
  const bool pairs = N % 2 == 0;  // then a pair of columns is 8-byte aligned
#pragma unroll
  for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
    for (int j = 0; j < kTilesN; ++j) {
      const int col = n0 + warp_n + j * 8 + 2 * t;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = m0 + warp_m + i * 16 + g + 8 * h;
        if (row >= M || col >= N) continue;
        float* out = c + static_cast<std::int64_t>(row) * N + col;
        if (pairs) {
          *reinterpret_cast<float2*>(out) = make_float2(d[i][j][2 * h], d[i][j][2 * h + 1]);
        } else {
          out[0] = d[i][j][2 * h];
          if (col + 1 < N) out[1] = d[i][j][2 * h + 1];
        }
      }
    }
  }
}

template <typename T>
class TensorMma {
 public:
  explicit TensorMma(const kb::matmul::Operands<T>& p) {
    constexpr std::int64_t int_max = std::numeric_limits<int>::max();
    const std::int64_t tiles_m = (p.M + kBlockM - 1) / kBlockM;
    if (p.M > int_max || p.N > int_max || p.K > int_max || tiles_m > 65535) {
      throw kb::Error(KB_UNSUPPORTED, "shape too large for 32-bit tile coordinates");
    }
    grid_ = dim3(static_cast<unsigned>((p.N + kBlockN - 1) / kBlockN),
                 static_cast<unsigned>(tiles_m));
    wide_ = p.K % 4 == 0 && p.N % 4 == 0;
    KB_CUDA_CHECK(cudaFuncSetAttribute(kernel(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(kSharedBytes)));
  }

  void launch(const kb::matmul::Operands<T>& p, kb::Launcher& launch) const {
    launch(kernel(), grid_, dim3(kThreads), kSharedBytes, p.a(), p.b(), p.c(),
           static_cast<int>(p.M), static_cast<int>(p.N), static_cast<int>(p.K));
  }

 private:
  using Kernel = void (*)(const float*, const float*, float*, int, int, int);
  // 16-byte copies when every row of A and B starts on 16 bytes, 4-byte copies otherwise.
  Kernel kernel() const { return wide_ ? mma_matmul<4> : mma_matmul<1>; }

  dim3 grid_;
  bool wide_ = false;
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, TensorMma, kb::DTypes<float>,
                {.name = "matmul/tensor_mma",
                 .version = "1",
                 .description = "TF32 tensor cores, warp-level mma.sync m16n8k8, 128x128x32 tiles, "
                                "3-stage cp.async pipeline (4-byte copies when K or N is not a "
                                "multiple of 4)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_TF32})
