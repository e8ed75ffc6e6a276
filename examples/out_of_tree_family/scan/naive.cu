// scan/naive: one GPU thread walks the array in order. Correct, and the slowest a scan can be.
#include "scan.hpp"

#include <cstdio>

namespace {

template <typename T>
__global__ void scan_one_thread(const T* in, T* out, std::int64_t n) {
  T sum = 0;
  for (std::int64_t i = 0; i < n; ++i) out[i] = sum += in[i];
}

template <typename T>
struct Naive {
  static void launch(const scan::Operands<T>& p, kb::Launcher& launch) {
    launch(scan_one_thread<T>, 1, 1, 0, p.in(), p.out(), p.n);
  }
};

int accepts(const kb_case* c, kb_message* why) {
  if (c->shape[0] > (std::int64_t{1} << 22)) {
    std::snprintf(why->text, sizeof why->text, "one thread: at most 2^22 elements");
    return 0;
  }
  return 1;
}

}  // namespace

KBENCH_STRATEGY(scan::Operands, Naive, kb::DTypes<std::int32_t>,
                {.name = "scan/naive",
                 .version = "1",
                 .description = "one thread, in order",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_SIMT,
                 .accepts = accepts})
