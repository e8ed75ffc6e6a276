// Seed 003 version 2.0: one block, thread t adds elements t, t + threads, t + 2 threads...; a
// warp's 32 loads are neighbours, one coalesced access. Thread 0 then adds the threads' totals.
// The seed measured 3x over version 1.0 on its GPU.
#include <kbench/families/reduce_device.cuh>

namespace {

using namespace kb::reduce;

template <typename T>
struct OneBlockStrided {
  static void launch(const Operands<T>& p, kb::Launcher& launch) {
    launch(strided_block_sums<T>, 1, p.block, p.block * sizeof(Result<T>), p.in(), p.n, p.op,
           p.out());
  }
};

}  // namespace

KBENCH_STRATEGY(kb::reduce::Operands, OneBlockStrided, kb::reduce::DTypesOfAnySize,
                {.name = "reduce/one_block_strided",
                 .version = "1",
                 .description = "one block striding by its size: coalesced (seed 003 version 2.0)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT,
                 .ops = kb::reduce::kOps,
                 .accepts = kb::reduce::accepts_1d_block})
