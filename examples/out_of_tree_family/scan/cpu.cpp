// scan/cpu: the prefix sum in one host loop; runs anywhere, so `kbench run` has a scan case
// without a GPU. A version 3 strategy: the family (scan_family.so) draws `in` in host memory and
// checks `out`.
#include "scan.hpp"

namespace {

template <typename T>
struct Cpu {
  static void launch(const scan::Operands<T>& p, kb::Launcher&) {
    const T* in = p.in();
    T* out = p.out();
    T sum = 0;
    for (std::int64_t i = 0; i < p.n; ++i) out[i] = sum += in[i];
  }
};

}  // namespace

KBENCH_STRATEGY(scan::Operands, Cpu, kb::DTypes<std::int32_t>,
                {.name = "scan/cpu",
                 .version = "1",
                 .description = "one host loop",
                 .device = KB_DEVICE_HOST,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_SIMT})
