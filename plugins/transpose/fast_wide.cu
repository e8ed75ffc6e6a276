// Temporary A/B against transpose/fast (kept or deleted on the H200's numbers): the same kernel
// (fast_tile.cuh) with tiles twice as wide, 512 bytes on both sides: 128x128 for 4-byte types
// (1024 threads, 64 KB of dynamic shared memory), 64x64 for float64 (512 threads, 32 KB).
// Hypothesis: the loss against copy is DRAM page locality of short runs, and fast's 256-byte
// input-row stretches are the short side; here every tile row read and every output row written
// is a 512-byte run. Threads, chunks in flight and shared memory per SM, and the number of
// waves, are the same as fast's, so only the run length differs.
#include "fast_tile.cuh"

namespace {

template <typename T>
struct FastWide : TiledTranspose<T, /*kChunksPerRow=*/32> {
  static void launch(const kb::transpose::Problem<T>& p, kb::Launcher& launch) {
    TiledTranspose<T, 32>::launch(p, launch, "transpose/fast_wide");
  }
};

}  // namespace

KBENCH_PLUGIN(kb::transpose::Problem, FastWide, kb::AllDTypes,
              {"transpose/fast_wide", "1",
               "512-byte x 512-byte tile (128x128 4-byte, 64x64 float64), 16-byte loads/stores, "
               "swizzled shared tile, register transposes",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE})
