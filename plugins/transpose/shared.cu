// Seeds 002 and 004: the shared tile without padding. Writing the output reads the tile down a
// column; with a 32-wide tile all 32 threads of a warp hit one bank (16-way for float64's
// 8-byte words per half-warp), so the reads are serialised.
#include "shared_tile.cuh"

namespace {

template <typename T>
struct Shared {
  static void launch(const kb::transpose::Operands<T>& p, kb::Launcher& launch) {
    kb::transpose::launch_shared_tile<T, /*kPad=*/0, /*kSwapped=*/false>(p, launch);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::transpose::Operands, Shared, kb::AllDTypes,
                {.name = "transpose/shared",
                 .version = "1",
                 .description =
                     "shared-memory tile = block, no padding: bank conflicts (seeds 002/004)",
                 .device = KB_DEVICE_CUDA,
                 .accepts = kb::transpose::accepts_square_block_up_to_32})
