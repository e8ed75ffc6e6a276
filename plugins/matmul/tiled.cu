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
              {"matmul/tiled", "1",
               "square shared-memory tiles of the block's size, zero-filled edges (seed 001/003)",
               KB_DEVICE_CUDA, KB_FLAG_MATH_SIMT, "", kb::matmul::accepts_square_block})
