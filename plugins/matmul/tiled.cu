// Square shared-memory tiles the size of the block (seed 001 shared, seed 003 3.0): each entry of
// A and B is read from global memory N/tile and M/tile times instead of N and M times.
#include "tiled.cuh"

namespace {

template <typename T>
struct Tiled {
  static void launch(const kb::matmul::Operands<T>& p, kb::Launcher& launch) {
    kb::matmul::launch_tiled(p, launch, /*pitch=*/p.block.x);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, Tiled, kb::FloatDTypes,
                {.name = "matmul/tiled",
                 .version = "1",
                 .description = "square shared-memory tiles of the block's size, zero-filled edges "
                                "(seed 001/003)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT,
                 .accepts = kb::matmul::accepts_square_block})
