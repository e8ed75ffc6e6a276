// cublasSgemm with TF32 tensor cores allowed (CUBLAS_TF32_TENSOR_OP_MATH): inputs lose 13
// mantissa bits, products are accumulated in float32. Verified at tf32 tolerance.
#include "cublas.hpp"

namespace {

template <typename T>
struct CublasTf32 {
  explicit CublasTf32(const kb::matmul::Operands<T>&) : handle(CUBLAS_TF32_TENSOR_OP_MATH) {}

  void launch(const kb::matmul::Operands<T>& p, kb::Launcher& launch) {
    kb::matmul::gemm(handle.on(launch.stream()), p);
    launch.record_library_call();
  }

  kb::matmul::CublasHandle handle;
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, CublasTf32, kb::DTypes<float>,
                {.name = "matmul/cublas_tf32",
                 .version = "1",
                 .description = "cublasSgemm on TF32 tensor cores (float32 accumulation)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_TF32})
