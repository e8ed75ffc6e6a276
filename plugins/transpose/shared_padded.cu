// Seed 000: the shared tile with one extra column, so a column of the tile spans every bank.
// The seed measured the unpadded tile 29% slower at 2048x2048 (0.153 vs 0.119 ms).
#include "shared_tile.cuh"

namespace {

template <typename T>
struct SharedPadded {
  static void launch(const kb::transpose::Operands<T>& p, kb::Launcher& launch) {
    kb::transpose::launch_shared_tile<T, /*kPad=*/1, /*kSwapped=*/false>(p, launch);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::transpose::Operands, SharedPadded, kb::AllDTypes,
                {.name = "transpose/shared_padded",
                 .version = "1",
                 .description =
                     "shared-memory tile = block, +1 column against bank conflicts (seed 000)",
                 .device = KB_DEVICE_CUDA,
                 .accepts = kb::transpose::accepts_square_block_up_to_32})
