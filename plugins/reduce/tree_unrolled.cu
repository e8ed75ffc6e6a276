// Seed 003's last step: the sequential-addressing tree with the block size known at compile time,
// so the level loop unrolls into straight code and every `threadIdx.x < offset` test compares with
// a constant: no loop counter, no shifts. Nothing else changes. One kernel per power-of-two block
// size, picked when the case is set up.
#include <kbench/families/reduce_device.cuh>

namespace {

using namespace kb::reduce;

template <unsigned B>
struct TreeUnrolled {
  template <typename V>
  __device__ V operator()(V v) const {
    V* values = shared_array<V>();
    values[threadIdx.x] = v;
    __syncthreads();
#pragma unroll
    for (unsigned offset = B / 2; offset > 0; offset /= 2) {
      if (threadIdx.x < offset) values[threadIdx.x] += values[threadIdx.x + offset];
      __syncthreads();
    }
    return values[0];
  }
};

template <typename T, unsigned B = 1024>
typename GridReduce<T>::Kernel kernel_for(unsigned block) {
  if (block == B) return reduce_grid<T, TreeUnrolled<B>>;
  if constexpr (B > 1) {
    return kernel_for<T, B / 2>(block);
  } else {
    throw kb::Error(KB_ERROR, "tree_unrolled: the block is not a power of two up to 1024");
  }
}

template <typename T>
struct Strategy : GridReduce<T> {
  explicit Strategy(const Operands<T>& p) : GridReduce<T>(p, kernel_for<T>(p.block)) {}
};

}  // namespace

KBENCH_STRATEGY(kb::reduce::Operands, Strategy, kb::reduce::DTypesOfAnySize,
                {.name = "reduce/tree_unrolled",
                 .version = "1",
                 .description = "sequential tree unrolled for a compile-time block size (seed 003 "
                                "last version)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT,
                 .ops = kb::reduce::kOps,
                 .accepts = kb::reduce::accepts_power_of_two_block})
