// Seed 003's next step: sequential addressing. At each level the first `offset` threads add the
// value `offset` above them, so the working threads are contiguous (whole warps idle instead of
// every warp diverging) and a warp reads 32 consecutive words (no bank conflicts). Then the last
// block puts the block totals through the same tree.
#include <kbench/families/reduce_device.cuh>

namespace {

using namespace kb::reduce;

struct TreeSequential {
  template <typename V>
  __device__ V operator()(V v) const {
    V* values = shared_array<V>();
    values[threadIdx.x] = v;
    __syncthreads();
    for (unsigned offset = blockDim.x / 2; offset > 0; offset /= 2) {
      if (threadIdx.x < offset) values[threadIdx.x] += values[threadIdx.x + offset];
      __syncthreads();
    }
    return values[0];
  }
};

template <typename T>
struct Strategy : GridReduce<T> {
  explicit Strategy(const Operands<T>& p) : GridReduce<T>(p, reduce_grid<T, TreeSequential>) {}
};

}  // namespace

KBENCH_STRATEGY(kb::reduce::Operands, Strategy, kb::reduce::DTypesOfAnySize,
                {.name = "reduce/tree_sequential",
                 .version = "1",
                 .description = "shared-memory tree, sequential addressing: no divergence within "
                                "warps, no bank conflicts (seed 003)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT,
                 .ops = kb::reduce::kOps,
                 .accepts = kb::reduce::accepts_power_of_two_block})
