// matmul/tiled with a tile pitch of tile + 1 (seed 001's guard against bank conflicts). The
// inner loop reads a row of the A tile (one address per row of the warp: a broadcast) and a row
// of the B tile (consecutive banks), never a column, so there is no conflict to remove: expect
// about the time of matmul/tiled. kbench lets the seed's claim be tested.
#include "tiled.cuh"

namespace {

template <typename T>
struct TiledPadded {
  static void launch(const kb::matmul::Operands<T>& p, kb::Launcher& launch) {
    kb::matmul::launch_tiled(p, launch, /*pitch=*/p.block.x + 1);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, TiledPadded, kb::FloatDTypes,
                {.name = "matmul/tiled_padded",
                 .version = "1",
                 .description = "matmul/tiled with tiles padded to tile+1 columns (seed 001)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT,
                 .accepts = kb::matmul::accepts_square_block})
