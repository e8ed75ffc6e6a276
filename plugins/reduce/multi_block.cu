// Seed 003 versions 3.0 and 4.0: the strided walk over a grid of blocks, each block's total added
// by its thread 0, and the block totals added on the host. The host's share is a copy back, a wait
// for the device, and a copy of the result to the device, all inside launch: their cost is part of
// what this plugin measures (KB_FLAG_SYNCHRONIZES). The seed ran 32 blocks; this runs one full wave
// of the device, so no multiprocessor idles.
#include <kbench/families/reduce_device.cuh>

#include <vector>

namespace {

using namespace kb::reduce;

template <typename T>
struct MultiBlock {
  using Acc = Result<T>;

  explicit MultiBlock(const Operands<T>& p)
      : grid(resident_grid(strided_block_sums<T>, p.block, p.block * sizeof(Acc), p.n)),
        device_totals(KB_DEVICE_CUDA, grid),
        host_totals(grid) {}

  void launch(const Operands<T>& p, kb::Launcher& launch) {
    launch(strided_block_sums<T>, grid, p.block, p.block * sizeof(Acc), p.in(), p.n, p.op,
           device_totals.data());
    const cudaStream_t stream = launch.stream();
    KB_CUDA_CHECK(cudaMemcpyAsync(host_totals.data(), device_totals.data(), grid * sizeof(Acc),
                                  cudaMemcpyDeviceToHost, stream));
    KB_CUDA_CHECK(cudaStreamSynchronize(stream));
    total = 0;
    for (const Acc t : host_totals) total += t;
    // From pageable memory the copy takes `total` before it returns.
    KB_CUDA_CHECK(cudaMemcpyAsync(p.out(), &total, sizeof(Acc), cudaMemcpyHostToDevice, stream));
  }

  const unsigned grid;
  kb::Array<Acc> device_totals;
  std::vector<Acc> host_totals;
  Acc total = 0;
};

}  // namespace

KBENCH_STRATEGY(kb::reduce::Operands, MultiBlock, kb::reduce::DTypesOfAnySize,
                {.name = "reduce/multi_block",
                 .version = "1",
                 .description = "strided over a grid; thread 0 adds each block, the host adds the "
                                "blocks (seed 003 versions 3.0-4.0)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_SYNCHRONIZES | KB_FLAG_MATH_SIMT,
                 .ops = kb::reduce::kOps,
                 .accepts = kb::reduce::accepts_1d_block})
