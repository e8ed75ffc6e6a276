// The host loop seed 003 checks its GPU versions against: one pass in order, accumulated in
// double for floats and in int64 for integers.
#include <kbench/families/reduce.hpp>

#include <limits>
#include <type_traits>

namespace {

using namespace kb::reduce;

template <typename T>
struct Cpu {
  using Wide = std::conditional_t<std::is_integral_v<T>, std::int64_t, double>;

  static void launch(const Operands<T>& p, kb::Launcher&) {
    const T* in = p.in();
    Wide sum = 0;
    for (std::int64_t i = 0; i < p.n; ++i) {
      sum += term(p.op, static_cast<Wide>(static_cast<Result<T>>(in[i])));
    }
    *p.out() = static_cast<Result<T>>(sum);
  }
};

}  // namespace

KBENCH_STRATEGY(kb::reduce::Operands, Cpu, kb::reduce::DTypesOfAnySize,
                {.name = "reduce/cpu",
                 .version = "1",
                 .description =
                     "host CPU, one pass in order, double/int64 accumulator (seed 003 check)",
                 .device = KB_DEVICE_HOST,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE,
                 .ops = kb::reduce::kOps})
