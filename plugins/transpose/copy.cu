// Not a transpose: a device-to-device copy of the same bytes, the ceiling the family's GB/s are
// measured against in the same sweep (a transpose reads and writes exactly what a copy does). It
// declares KB_FLAG_CEILING, so the family checks a copy.
#include <kbench/families/transpose.hpp>

namespace {

template <typename T>
struct Copy {
  static void launch(const kb::transpose::Operands<T>& p, kb::Launcher& launch) {
    KB_CUDA_CHECK(cudaMemcpyAsync(p.out(), p.in(), p.count() * sizeof(T),
                                  cudaMemcpyDeviceToDevice, launch.stream()));
    launch.record_library_call();
  }
};

}  // namespace

KBENCH_STRATEGY(kb::transpose::Operands, Copy, kb::EveryDType,
                {.name = "transpose/copy",
                 .version = "1",
                 .description =
                     "cudaMemcpyAsync device-to-device of the same bytes: the family's ceiling",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_CEILING})
