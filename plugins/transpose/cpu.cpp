// The host loop the seeds (000, 004) use as their baseline: one pass, row by row.
#include <kbench/families/transpose.hpp>

namespace {

template <typename T>
struct Cpu {
  static void launch(const kb::transpose::Operands<T>& p, kb::Launcher&) {
    const T* in = p.in();
    T* out = p.out();
    for (std::int64_t r = 0; r < p.rows; ++r) {
      for (std::int64_t c = 0; c < p.cols; ++c) out[c * p.rows + r] = in[r * p.cols + c];
    }
  }
};

}  // namespace

KBENCH_STRATEGY(kb::transpose::Operands, Cpu, kb::EveryDType,
                {.name = "transpose/cpu",
                 .version = "1",
                 .description = "host CPU, serial row-by-row loop (seed 000/004 baseline)",
                 .device = KB_DEVICE_HOST,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE})
