// The fastest transpose we have for Hopper (the kernel and its reasons: fast_tile.cuh). A block
// moves a tile of 256-byte rows whose columns become 512-byte output rows: 128x64 for 4-byte
// types (512 threads), 64x32 for float64 (256). With 64-row float32 tiles (256-byte output
// stretches) the H200 reached 0.921 of copy at 8192x8192; float64 at 8192x4096, read exactly
// the same way but written in 512-byte stretches, 0.931.
#include "fast_tile.cuh"

namespace {

template <typename T>
struct Fast : TiledTranspose<T, /*kChunksPerRow=*/16> {
  static void launch(const kb::transpose::Problem<T>& p, kb::Launcher& launch) {
    TiledTranspose<T, 16>::launch(p, launch, "transpose/fast");
  }
};

}  // namespace

KBENCH_PLUGIN(kb::transpose::Problem, Fast, kb::AllDTypes,
              {"transpose/fast", "2",
               "256-byte x 512-byte tile (128x64 4-byte, 64x32 float64), 16-byte loads/stores, "
               "swizzled shared tile, register transposes",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE})
