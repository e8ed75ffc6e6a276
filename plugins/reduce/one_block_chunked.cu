// Seed 003 version 1.0: one block, each thread adds its own contiguous chunk of n / threads
// elements. Neighbouring threads read addresses a chunk apart, so each warp load touches 32
// different cache lines instead of one: uncoalesced. Thread 0 then adds the threads' totals.
#include <kbench/families/reduce_device.cuh>

namespace {

using namespace kb::reduce;

template <typename T>
__global__ void reduce_one_block_chunked(const T* in, std::int64_t n, Op op, Result<T>* out) {
  using Acc = Result<T>;
  const std::int64_t chunk = ceil_div(n, blockDim.x);
  const std::int64_t begin = threadIdx.x * chunk;
  const std::int64_t end = begin + chunk < n ? begin + chunk : n;
  Acc sum = 0;
  for (std::int64_t i = begin; i < end; ++i) sum += term(op, static_cast<Acc>(in[i]));
  sum = serial_block_sum(sum);
  if (threadIdx.x == 0) *out = sum;
}

template <typename T>
struct OneBlockChunked {
  static void launch(const Operands<T>& p, kb::Launcher& launch) {
    launch(reduce_one_block_chunked<T>, 1, p.block, p.block * sizeof(Result<T>), p.in(), p.n, p.op,
           p.out());
  }
};

}  // namespace

KBENCH_STRATEGY(kb::reduce::Operands, OneBlockChunked, kb::reduce::DTypesOfAnySize,
                {.name = "reduce/one_block_chunked",
                 .version = "1",
                 .description =
                     "one block, a contiguous chunk per thread: uncoalesced (seed 003 version 1.0)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_MATH_SIMT,
                 .ops = kb::reduce::kOps,
                 .accepts = kb::reduce::accepts_1d_block})
