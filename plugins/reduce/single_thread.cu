// Seed 003's first version: one GPU thread adds all n elements in order, <<<1, 1>>>. One thread
// cannot keep enough loads in flight to hide memory latency; it is the ladder's baseline.
#include <kbench/families/reduce_device.cuh>

#include <cstdio>

namespace {

using namespace kb::reduce;

template <typename T>
__global__ void reduce_single_thread(const T* in, std::int64_t n, Op op, Result<T>* out) {
  Result<T> sum = 0;
  for (std::int64_t i = 0; i < n; ++i) sum += term(op, static_cast<Result<T>>(in[i]));
  *out = sum;
}

// One thread needs seconds per launch beyond this, and a case launches a dozen times.
constexpr std::int64_t kMaxElements = std::int64_t{1} << 26;

int accepts(const kb_case* c, kb_message* why) {
  if (c->shape[0] <= kMaxElements) return 1;
  std::snprintf(why->text, sizeof why->text,
                "one thread takes seconds per launch: at most 2^26 elements (got %lld)",
                static_cast<long long>(c->shape[0]));
  return 0;
}

template <typename T>
struct SingleThread {
  static void launch(const Operands<T>& p, kb::Launcher& launch) {
    launch(reduce_single_thread<T>, 1, 1, 0, p.in(), p.n, p.op, p.out());
  }
};

}  // namespace

KBENCH_STRATEGY(kb::reduce::Operands, SingleThread, kb::reduce::DTypesOfAnySize,
                {.name = "reduce/single_thread",
                 .version = "1",
                 .description =
                     "one GPU thread adds all n in order, <<<1,1>>> (seed 003 first version)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_SIMT,
                 .ops = kb::reduce::kOps,
                 .accepts = accepts})
