// Harris's step past seed 003, in its modern form: a warp adds its 32 values with register
// shuffles (__shfl_down_sync: five levels, no shared memory, no barrier), and shared memory only
// passes the warp totals to the first warp, which shuffles them once more. That block_sum() lives
// in the family header because reduce/fast and reduce/kahan reuse it; the walk and the last-block
// finish are the trees'.
#include <kbench/families/reduce_device.cuh>

namespace {

using namespace kb::reduce;

template <typename T>
struct Strategy : GridReduce<T> {
  explicit Strategy(const Operands<T>& p) : GridReduce<T>(p, reduce_grid<T, BlockSum>) {}
};

}  // namespace

KBENCH_STRATEGY(kb::reduce::Operands, Strategy, kb::reduce::DTypesOfAnySize,
                {.name = "reduce/warp_shuffle",
                 .version = "1",
                 .description = "warp shuffles instead of a shared-memory tree; shared memory only "
                                "between warps",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT,
                 .ops = kb::reduce::kOps,
                 .accepts = kb::reduce::accepts_warp_multiple_block})
