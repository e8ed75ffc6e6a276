// scan/cpu: the prefix sum in one host loop; runs anywhere, so `kbench run` has a scan case
// without a GPU.
#include "scan.hpp"

namespace {

template <typename T>
struct Cpu {
  static void launch(const scan::Problem<T>& p, kb::Launcher&) {
    T sum = 0;
    for (std::int64_t i = 0; i < p.n; ++i) p.out()[i] = sum += p.in()[i];
  }
};

}  // namespace

KBENCH_PLUGIN(scan::Problem, Cpu, kb::DTypes<std::int32_t>,
              {"scan/cpu", "1", "one host loop", KB_DEVICE_HOST,
               KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_SIMT})
