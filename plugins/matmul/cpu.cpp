// The host loop of seed 003's reference (matmult): one entry at a time, accumulated in double.
#include <kbench/families/matmul.hpp>

namespace {

template <typename T>
struct Cpu {
  static void launch(const kb::matmul::Operands<T>& p, kb::Launcher&) {
    const T* a = p.a();
    const T* b = p.b();
    T* c = p.c();
    for (std::int64_t i = 0; i < p.M; ++i) {
      for (std::int64_t j = 0; j < p.N; ++j) {
        double sum = 0.0;
        for (std::int64_t k = 0; k < p.K; ++k) sum += double{a[i * p.K + k]} * b[k * p.N + j];
        c[i * p.N + j] = static_cast<T>(sum);
      }
    }
  }
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, Cpu, kb::FloatDTypes,
                {.name = "matmul/cpu",
                 .version = "1",
                 .description = "host CPU, serial i-j-k loop accumulated in double (seed 003)",
                 .device = KB_DEVICE_HOST,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE,
                 .accepts = kb::matmul::accepts_host_size})
