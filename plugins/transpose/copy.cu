// Not a transpose: a device-to-device copy of the same bytes, the ceiling the family's GB/s are
// measured against in the same sweep (a transpose reads and writes exactly what a copy does).
#include <kbench/families/transpose.hpp>

namespace {

template <typename T>
struct Copy {
  static void launch(const kb::transpose::Problem<T>& p, kb::Launcher& launch) {
    KB_CUDA_CHECK(cudaMemcpyAsync(p.out(), p.in(), p.count() * sizeof(T),
                                  cudaMemcpyDeviceToDevice, launch.stream()));
    launch.record_library_call();
  }

  // The output is the input, untransposed.
  static kb_verification verify(const kb::transpose::Problem<T>& p) { return p.verify_copy(); }
};

}  // namespace

KBENCH_PLUGIN(kb::transpose::Problem, Copy, kb::EveryDType,
              {"transpose/copy", "1",
               "cudaMemcpyAsync device-to-device of the same bytes: the family's ceiling",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE})
