// Seed 003 version 5.0: the block's values in shared memory, added pairwise in log2(threads)
// levels; at each level a thread whose index is a multiple of twice the offset (the seed's mask)
// adds the value `offset` above it. The threads still working are spread over every warp, so each
// warp diverges, and they access shared memory with a stride that doubles each level, so their
// accesses pile up in fewer banks. Then the last block puts the block totals through the same tree.
#include <kbench/families/reduce_device.cuh>

namespace {

using namespace kb::reduce;

struct TreeInterleaved {
  template <typename V>
  __device__ V operator()(V v) const {
    V* values = shared_array<V>();
    values[threadIdx.x] = v;
    __syncthreads();
    for (unsigned offset = 1, mask = 1; offset < blockDim.x; offset *= 2, mask = 2 * mask + 1) {
      if ((threadIdx.x & mask) == 0) values[threadIdx.x] += values[threadIdx.x + offset];
      __syncthreads();
    }
    return values[0];
  }
};

template <typename T>
struct Strategy : GridReduce<T> {
  explicit Strategy(const Operands<T>& p) : GridReduce<T>(p, reduce_grid<T, TreeInterleaved>) {}
};

}  // namespace

KBENCH_STRATEGY(kb::reduce::Operands, Strategy, kb::reduce::DTypesOfAnySize,
                {.name = "reduce/tree_interleaved",
                 .version = "1",
                 .description = "shared-memory tree, interleaved pairs picked by a mask: divergent "
                                "warps, bank conflicts (seed 003 version 5.0)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT,
                 .ops = kb::reduce::kOps,
                 .accepts = kb::reduce::accepts_power_of_two_block})
