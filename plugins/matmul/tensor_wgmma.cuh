// Hopper (sm_90a) tensor-core matrix product shared by matmul/tensor_wgmma (TF32) and
// matmul/tensor_bf16: C (float) = A * B with A and B given K-major (A as M x K, B transposed to
// N x K), both read by the copy engine (TMA) and multiplied by `wgmma` straight from shared memory.
//
// A block computes 128 x 256 tiles of C with three warpgroups: warpgroup 0 is the producer (one
// thread issues the TMA copies), warpgroups 1 and 2 each own 64 rows of the tile and issue one
// m64n256 wgmma per k step. One block per SM, persistent: it walks its tiles while the producer
// runs ahead, so a tile's first stages load while the last tile's results are stored. Four stages
// of shared memory, each stage guarded by a "full" barrier (the copy engine counts the bytes in)
// and an "empty" barrier (each consumer warp arrives once its wgmmas have finished reading the
// stage).
//
// Every stage holds one K slice of 128 bytes per tile row (32 floats, or 64 bf16 or f16), which is
// exactly the span of the 128-byte swizzle that TMA writes and wgmma reads: they agree on the
// layout by construction, and the code only names it (CU_TENSOR_MAP_SWIZZLE_128B on one side,
// swizzle mode 1 in the descriptor on the other). TMA fills every element outside the matrix with zeros, so partial
// tiles need no code; only the stores of C are guarded.
#pragma once

#include <kbench/families/matmul.hpp>
#include <kbench/support/device.hpp>

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kb_wgmma {

constexpr int kBlockM = 128;    // two consumer warpgroups of 64 rows
constexpr int kBlockN = 256;    // the widest wgmma: fewest shared-memory bytes per flop
constexpr int kRowBytes = 128;  // one tile row of one stage: the 128-byte swizzle span
constexpr int kStages = 4;
constexpr int kThreads = 3 * 128;
constexpr std::uint32_t kATileBytes = kBlockM * kRowBytes;
constexpr std::uint32_t kBTileBytes = kBlockN * kRowBytes;
constexpr std::uint32_t kSwizzleAtomBytes = 1024;  // 8 rows of 128 bytes: the swizzle repeats
// The epilogue: each consumer warp turns its accumulators into whole 128-byte lines of C through
// its own 16 rows x 32 columns of shared memory, rows padded by 4 floats so that neither the
// fragment writes nor the line reads conflict (see store_columns).
constexpr int kConsumerWarps = 8;
constexpr int kStagingRowFloats = 32 + 4;
constexpr std::uint32_t kStagingBytes = 16 * kStagingRowFloats * sizeof(float);
// The runtime does not align dynamic shared memory to the swizzle atom; the kernel rounds up.
constexpr std::size_t kSharedBytes = kStages * (kATileBytes + kBTileBytes) +
                                     2 * kStages * sizeof(std::uint64_t) +
                                     kConsumerWarps * kStagingBytes + kSwizzleAtomBytes;

template <class Elem>
constexpr int kBlockK = kRowBytes / static_cast<int>(sizeof(Elem));  // 32 tf32, 64 bf16
template <class Elem>
constexpr int kStepK = 32 / static_cast<int>(sizeof(Elem));  // wgmma's K: 8 tf32, 16 bf16
constexpr std::uint32_t kStepBytes = 32;                     // one k step within a tile row

__device__ inline std::uint32_t shared_address(const void* pointer) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}

__device__ inline void barrier_init(std::uint32_t barrier, std::uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(barrier), "r"(arrivals) : "memory");
}

__device__ inline void barrier_wait(std::uint32_t barrier, std::uint32_t parity) {
  std::uint32_t done = 0;
  do {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(barrier), "r"(parity)
        : "memory");
  } while (done == 0);
}

__device__ inline void barrier_arrive(std::uint32_t barrier) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(barrier) : "memory");
}

__device__ inline void barrier_arrive_expect_bytes(std::uint32_t barrier, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barrier), "r"(bytes)
               : "memory");
}

// The box at (x = column, y = row) of `map` into shared memory; completes on `barrier`.
__device__ inline void tma_load(std::uint32_t destination, const CUtensorMap* map, int x, int y,
                                std::uint32_t barrier) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];" ::"r"(destination),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(barrier)
      : "memory");
}

// Shared-memory matrix descriptor of a K-major operand in the 128-byte swizzle: the start address,
// the stride between groups of 8 rows (one swizzle atom), swizzle mode 1. The leading-dimension
// offset is unused for this layout (the whole K step lies inside one 128-byte row) and is set to 1
// as CUTLASS does.
__device__ inline std::uint64_t descriptor(std::uint32_t address) {
  return static_cast<std::uint64_t>((address & 0x3FFFF) >> 4) | (std::uint64_t{1} << 16) |
         (static_cast<std::uint64_t>(kSwizzleAtomBytes >> 4) << 32) | (std::uint64_t{1} << 62);
}

#define KB_WGMMA_D_REGISTERS                                                                     \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                      \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "             \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "             \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "             \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "             \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "             \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"

#define KB_WGMMA_D_OPERANDS(d)                                                                    \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),             \
      "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),     \
      "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),  \
      "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),  \
      "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),  \
      "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),  \
      "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),  \
      "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),  \
      "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),  \
      "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),  \
      "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),  \
      "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),  \
      "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),  \
      "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]),  \
      "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),           \
      "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]),         \
      "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),         \
      "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]),         \
      "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

// d (64 x 256 per warpgroup) += A (64 x k) * B (k x 256), both from shared memory, K-major.
template <class Elem>
__device__ inline void wgmma(float (&d)[128], std::uint64_t a, std::uint64_t b) {
  if constexpr (std::is_same_v<Elem, float>) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 " KB_WGMMA_D_REGISTERS
        ", %128, %129, p, 1, 1;\n"
        "}\n"
        : KB_WGMMA_D_OPERANDS(d)
        : "l"(a), "l"(b), "r"(1));
  } else if constexpr (std::is_same_v<Elem, __half>) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 " KB_WGMMA_D_REGISTERS
        ", %128, %129, p, 1, 1, 0, 0;\n"
        "}\n"
        : KB_WGMMA_D_OPERANDS(d)
        : "l"(a), "l"(b), "r"(1));
  } else {
    static_assert(std::is_same_v<Elem, __nv_bfloat16>, "operands are tf32 (float), f16 or bf16");
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 " KB_WGMMA_D_REGISTERS
        ", %128, %129, p, 1, 1, 0, 0;\n"
        "}\n"
        : KB_WGMMA_D_OPERANDS(d)
        : "l"(a), "l"(b), "r"(1));
  }
}

#undef KB_WGMMA_D_OPERANDS
#undef KB_WGMMA_D_REGISTERS

// The compiler sees the accumulators change only at the wgmma statements; this keeps their reads
// after wgmma.wait_group, where the asynchronous results have landed.
__device__ inline void fence_registers(float (&d)[128]) {
#pragma unroll
  for (int i = 0; i < 128; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// Stores 32 columns (accumulator groups 4 * kRound .. 4 * kRound + 3) of a warp's 16 x 256 slice
// of C, whose first element is C[row0][col0]. The fragment layout (register 4j + 2h + e: row
// lane / 4 + 8h, column 8j + 2 (lane % 4) + e) would have each store instruction write 32 bytes
// of 8 rows; the staging rows turn it into 16-byte stores of whole lines, 4 rows of 128 bytes an
// instruction. Measured on an H100 (one run, interleaved, 2026-11-25): BF16 4096^3 194.2 ->
// 185.8 us, TF32 344.8 -> 338.3; the same kernel with no stores at all took 170.4 and 322.1, all
// its SMs storing their tiles at the same moment.
template <int kRound>
__device__ inline void store_columns(const float (&d)[128], float* staging, int lane, float* c,
                                     int row0, int col0, int M, int N) {
#pragma unroll
  for (int jj = 0; jj < 4; ++jj) {
    const int j = 4 * kRound + jj;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      *reinterpret_cast<float2*>(staging + (lane / 4 + 8 * h) * kStagingRowFloats + 8 * jj +
                                 2 * (lane % 4)) = make_float2(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
    }
  }
  __syncwarp();
  const int col = col0 + 32 * kRound + 4 * (lane % 8);
  const bool vectors = N % 4 == 0;  // then every row starts 16-byte aligned
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int r = 4 * i + lane / 8;
    const float4 x =
        *reinterpret_cast<const float4*>(staging + r * kStagingRowFloats + 4 * (lane % 8));
    const int row = row0 + r;
    if (row >= M || col >= N) continue;
    float* out = c + static_cast<std::int64_t>(row) * N + col;
    if (vectors) {
      *reinterpret_cast<float4*>(out) = x;
    } else {
      const float values[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        if (col + e < N) out[e] = values[e];
      }
    }
  }
  __syncwarp();  // the next round writes the staging rows again
}

template <int... kRounds>
__device__ inline void store_tile(const float (&d)[128], float* staging, int lane, float* c,
                                  int row0, int col0, int M, int N,
                                  std::integer_sequence<int, kRounds...>) {
  (store_columns<kRounds>(d, staging, lane, c, row0, col0, M, N), ...);
}

// Blocks start in index order, a wave of one per SM at a time, and a wave moves through K at about
// the same pace, so what a wave reads from DRAM is its distinct rows of A tiles and columns of B
// tiles. Row-major tile order made a wave a few tile rows by every tile column: at 8192^3, 4 rows
// of A and all 32 columns of B, 285 MB a wave for a 50 MB L2. Tiles are therefore ordered in
// groups of kGroupM tile rows, down each column of the group: a wave of 132 is 16 rows by about 8
// columns, as many bytes of A as of B, half the traffic (Triton's grouped ordering).
constexpr int kGroupM = 16;

__device__ inline void tile_of(int block, int tiles_m, int tiles_n, int& tile_m, int& tile_n) {
  const int group_blocks = kGroupM * tiles_n;
  const int first_m = block / group_blocks * kGroupM;
  const int rows = min(tiles_m - first_m, kGroupM);
  const int in_group = block % group_blocks;
  tile_m = first_m + in_group % rows;
  tile_n = in_group / rows;
}

template <class Elem>
__global__ void __launch_bounds__(kThreads, 1)
    wgmma_matmul(const __grid_constant__ CUtensorMap a_map,
                 const __grid_constant__ CUtensorMap b_map, float* c, int M, int N, int K) {
  extern __shared__ unsigned char shared_raw[];
  const std::uint32_t a_tiles =
      (shared_address(shared_raw) + kSwizzleAtomBytes - 1) & ~(kSwizzleAtomBytes - 1);
  const std::uint32_t b_tiles = a_tiles + kStages * kATileBytes;
  const std::uint32_t full = b_tiles + kStages * kBTileBytes;  // kStages barriers of 8 bytes
  const std::uint32_t empty = full + kStages * 8;
  const std::uint32_t staging = empty + kStages * 8;  // 16-byte aligned: barriers follow 1 KB tiles
  const int k_tiles = (K + kBlockK<Elem> - 1) / kBlockK<Elem>;
  const int tiles_m = (M + kBlockM - 1) / kBlockM;
  const int tiles_n = (N + kBlockN - 1) / kBlockN;
  const int tiles = tiles_m * tiles_n;
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      barrier_init(full + 8 * s, 1);
      barrier_init(empty + 8 * s, kConsumerWarps);
    }
    // Makes the initialised barriers visible to the copy engine (the async proxy).
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();

  // The block is persistent: it takes tiles blockIdx.x, + gridDim.x, ... (a wave of the grouped
  // order at a time). Stages are numbered by `use`, counted over all of the block's k tiles, so the
  // producer runs into the next tile while the consumers store this one: their next tile starts
  // with its first stages already loaded.
  if (warpgroup == 0) {
    // The producer needs few registers; the consumers get them (setmaxnreg, sm_90a).
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    if (threadIdx.x == 0) {
      int use = 0;
      for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int tile_m = 0;
        int tile_n = 0;
        tile_of(tile, tiles_m, tiles_n, tile_m, tile_n);
        for (int kt = 0; kt < k_tiles; ++kt, ++use) {
          const int s = use % kStages;
          // Stage s last held use - kStages; its release completed phase use / kStages - 1.
          if (use >= kStages) barrier_wait(empty + 8 * s, ((use / kStages) - 1) & 1);
          barrier_arrive_expect_bytes(full + 8 * s, kATileBytes + kBTileBytes);
          tma_load(a_tiles + s * kATileBytes, &a_map, kt * kBlockK<Elem>, tile_m * kBlockM,
                   full + 8 * s);
          tma_load(b_tiles + s * kBTileBytes, &b_map, kt * kBlockK<Elem>, tile_n * kBlockN,
                   full + 8 * s);
        }
      }
    }
    return;
  }

  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  const int consumer = warpgroup - 1;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int warp = (static_cast<int>(threadIdx.x) % 128) / 32;
  float* const staging_rows =
      reinterpret_cast<float*>(shared_raw + (staging - shared_address(shared_raw))) +
      (consumer * 4 + warp) * (kStagingBytes / sizeof(float));
  float d[128];
  int use = 0;
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int tile_m = 0;
    int tile_n = 0;
    tile_of(tile, tiles_m, tiles_n, tile_m, tile_n);
#pragma unroll
    for (int i = 0; i < 128; ++i) d[i] = 0.0f;

    for (int kt = 0; kt < k_tiles; ++kt, ++use) {
      const int s = use % kStages;
      barrier_wait(full + 8 * s, (use / kStages) & 1);
      const std::uint32_t a = a_tiles + s * kATileBytes + consumer * 64 * kRowBytes;
      const std::uint32_t b = b_tiles + s * kBTileBytes;
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
      for (int k = 0; k < kBlockK<Elem> / kStepK<Elem>; ++k) {
        wgmma<Elem>(d, descriptor(a + k * kStepBytes), descriptor(b + k * kStepBytes));
      }
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      // Keeps this k tile's wgmmas in flight while the previous one's, now finished, free its
      // stage.
      asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
      if (kt > 0 && lane == 0) barrier_arrive(empty + 8 * ((use - 1) % kStages));
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    fence_registers(d);
    if (k_tiles > 0 && lane == 0) barrier_arrive(empty + 8 * ((use - 1) % kStages));

    store_tile(d, staging_rows, lane, c, tile_m * kBlockM + consumer * 64 + warp * 16,
               tile_n * kBlockN, M, N, std::make_integer_sequence<int, kBlockN / 32>{});
  }
}

// ---- host side ----

template <class Elem>
constexpr CUtensorMapDataType tensor_map_type() {
  if constexpr (std::is_same_v<Elem, float>) {
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  } else if constexpr (std::is_same_v<Elem, __half>) {
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  } else {
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  }
}

// TMA needs every row to start on 16 bytes: the leading dimension, in elements, of a K-major copy.
template <class Elem>
std::int64_t padded_k(std::int64_t k) {
  constexpr std::int64_t per16 = 16 / sizeof(Elem);
  return (k + per16 - 1) / per16 * per16;
}

// The rows x k matrix at `base` (leading dimension `ld` elements), read in boxes of box_rows rows
// by one 128-byte K slice, 128-byte swizzled, zeros outside.
template <class Elem>
CUtensorMap make_tensor_map(const void* base, std::int64_t rows, std::int64_t k, std::int64_t ld,
                            std::uint32_t box_rows) {
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    KB_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000,
                                                   cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || function == nullptr) {
      throw kb::Error(KB_UNSUPPORTED, "the driver has no cuTensorMapEncodeTiled");
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  }();
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(k), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(ld) * sizeof(Elem)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(kBlockK<Elem>), box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult result =
      encode(&map, tensor_map_type<Elem>(), 2, const_cast<void*>(base), dims, strides, box,
             element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS) {
    throw kb::Error(KB_ERROR, "cuTensorMapEncodeTiled failed with CUresult " +
                                  std::to_string(static_cast<int>(result)));
  }
  return map;
}

// `source` (rows x cols, row-major) into `out` as a K-major matrix of Elem with leading dimension
// ld: the same layout when K runs along the rows (A), transposed when it runs down the columns
// (B), through a 32x32 tile in shared memory so both sides stay coalesced. The padding columns of
// `out` are left as they are (zero from prepare).
template <class Elem, class Source>
__global__ void to_k_major(const Source* source, std::int64_t rows, std::int64_t cols,
                           bool transpose, std::int64_t ld, Elem* out) {
  __shared__ Source tile[32][33];
  const std::int64_t r0 = std::int64_t{blockIdx.y} * 32, c0 = std::int64_t{blockIdx.x} * 32;
  for (int y = threadIdx.y; y < 32; y += blockDim.y) {
    const std::int64_t r = r0 + y, c = c0 + threadIdx.x;
    if (r < rows && c < cols) tile[y][threadIdx.x] = source[r * cols + c];
  }
  __syncthreads();
  for (int y = threadIdx.y; y < 32; y += blockDim.y) {
    if (transpose) {
      const std::int64_t c = c0 + y, r = r0 + threadIdx.x;
      if (r < rows && c < cols) out[c * ld + r] = Elem(tile[threadIdx.x][y]);
    } else {
      const std::int64_t r = r0 + y, c = c0 + threadIdx.x;
      if (r < rows && c < cols) out[r * ld + c] = Elem(tile[y][threadIdx.x]);
    }
  }
}

template <class Elem, class Source>
void launch_k_major(kb::Launcher& launch, const Source* source, std::int64_t rows,
                    std::int64_t cols, bool transpose, std::int64_t ld, Elem* out) {
  const dim3 grid(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 31) / 32));
  launch(to_k_major<Elem, Source>, grid, dim3(32, 8), 0, source, rows, cols, transpose, ld, out);
}

// The grid of one launch. Throws KB_UNSUPPORTED, before any setup work, where the kernel cannot
// run: sm_90a code loads on compute capability 9.0 alone, and coordinates are 32-bit.
inline dim3 launch_grid(std::int64_t M, std::int64_t N, std::int64_t K) {
  const int major = kb::current_device_attribute(cudaDevAttrComputeCapabilityMajor);
  const int minor = kb::current_device_attribute(cudaDevAttrComputeCapabilityMinor);
  if (major != 9 || minor != 0) {
    throw kb::Error(KB_UNSUPPORTED, "wgmma code is built for sm_90a (compute capability 9.0); "
                                    "this device is " + std::to_string(major) + "." +
                                        std::to_string(minor));
  }
  constexpr std::int64_t int_max = std::numeric_limits<int>::max();
  const std::int64_t tiles = (M + kBlockM - 1) / kBlockM * ((N + kBlockN - 1) / kBlockN);
  if (M > int_max || N > int_max || K > int_max || tiles > int_max) {
    throw kb::Error(KB_UNSUPPORTED, "shape too large for 32-bit tile coordinates");
  }
  const int sms = kb::current_device_attribute(cudaDevAttrMultiProcessorCount);
  return dim3(static_cast<unsigned>(std::min<std::int64_t>(tiles, sms)));
}

template <class Elem>
void allow_shared_memory() {
  KB_CUDA_CHECK(cudaFuncSetAttribute(wgmma_matmul<Elem>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(kSharedBytes)));
}

// The strategy both wgmma plugins share; `In` is the case's data type, `Operand` what the tensor
// cores read (float read as TF32, or bf16).
//
// wgmma reads both operands K-major, so each launch first transposes B into a buffer of the
// strategy (rows zero-padded to 16 bytes for TMA), converting to Operand, and copies A likewise
// unless it already is what the kernel reads (float, rows 16-byte aligned): part of the timed work,
// as the inputs are the family's and change between draws.
template <class In, class Operand>
class WgmmaStrategy {
 public:
  explicit WgmmaStrategy(const kb::matmul::Operands<In>& p)
      : grid_(launch_grid(p.M, p.N, p.K)),
        ld_(padded_k<Operand>(p.K)),
        a_copy_(KB_DEVICE_CUDA, static_cast<std::size_t>(a_in_place(p.K) ? 0 : p.M * ld_)),
        b_transposed_(KB_DEVICE_CUDA, static_cast<std::size_t>(p.N * ld_)) {
    const Operand* a = nullptr;
    if constexpr (std::is_same_v<Operand, In>) a = p.a();
    if (a_copy_.size() > 0) {
      KB_CUDA_CHECK(cudaMemset(a_copy_.data(), 0, a_copy_.bytes()));
      a = a_copy_.data();
    }
    KB_CUDA_CHECK(cudaMemset(b_transposed_.data(), 0, b_transposed_.bytes()));
    a_map_ = make_tensor_map<Operand>(a, p.M, p.K, ld_, kBlockM);
    b_map_ = make_tensor_map<Operand>(b_transposed_.data(), p.N, p.K, ld_, kBlockN);
    allow_shared_memory<Operand>();
  }

  void launch(const kb::matmul::Operands<In>& p, kb::Launcher& launch) const {
    if (a_copy_.size() > 0) {
      launch_k_major(launch, p.a(), p.M, p.K, false, ld_, const_cast<Operand*>(a_copy_.data()));
    }
    launch_k_major(launch, p.b(), p.K, p.N, true, ld_, const_cast<Operand*>(b_transposed_.data()));
    launch(wgmma_matmul<Operand>, grid_, dim3(kThreads), kSharedBytes, a_map_, b_map_, p.c(),
           static_cast<int>(p.M), static_cast<int>(p.N), static_cast<int>(p.K));
  }

 private:
  bool a_in_place(std::int64_t k) const { return std::is_same_v<Operand, In> && ld_ == k; }

  dim3 grid_;
  std::int64_t ld_;
  kb::Array<Operand> a_copy_;
  kb::Array<Operand> b_transposed_;
  CUtensorMap a_map_;
  CUtensorMap b_map_;
};

}  // namespace kb_wgmma
