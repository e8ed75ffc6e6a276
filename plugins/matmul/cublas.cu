// The vendor library at the precision of the data type: cublasSgemm / cublasDgemm in
// CUBLAS_DEFAULT_MATH, which never lowers the precision (no TF32 for float32; float64 may use the
// FP64 tensor cores, which are IEEE double). The yardstick for matmul/regblock.
#include "cublas.hpp"

namespace {

template <typename T>
struct Cublas {
  explicit Cublas(const kb::matmul::Operands<T>&) : handle(CUBLAS_DEFAULT_MATH) {}

  void launch(const kb::matmul::Operands<T>& p, kb::Launcher& launch) {
    kb::matmul::gemm(handle.on(launch.stream()), p);
    launch.record_library_call();
  }

  kb::matmul::CublasHandle handle;
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, Cublas, kb::FloatDTypes,
                {.name = "matmul/cublas",
                 .version = "1",
                 .description = "cublasSgemm / cublasDgemm, default (full precision) math",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_FP64_TENSOR})
