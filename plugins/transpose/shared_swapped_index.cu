// Seed 000's last experiment: the padded tile with the roles of threadIdx.x and threadIdx.y
// swapped. The seed measured it 2x slower and credited the order threads run in; what changes is
// that consecutive threads now touch different rows of global memory, on both the read and the
// write, so neither access coalesces.
#include "shared_tile.cuh"

namespace {

template <typename T>
struct SharedSwappedIndex {
  static void launch(const kb::transpose::Operands<T>& p, kb::Launcher& launch) {
    kb::transpose::launch_shared_tile<T, /*kPad=*/1, /*kSwapped=*/true>(p, launch);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::transpose::Operands, SharedSwappedIndex, kb::AllDTypes,
                {.name = "transpose/shared_swapped_index",
                 .version = "1",
                 .description = "padded tile with threadIdx.x/y swapped: uncoalesced global "
                                "accesses (seed 000)",
                 .device = KB_DEVICE_CUDA,
                 .accepts = kb::transpose::accepts_square_block_up_to_32})
