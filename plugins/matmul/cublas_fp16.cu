// The vendor baseline of matmul/tensor_fp16, on the same terms: float16 A and B as they are,
// cublasGemmEx on the FP16 tensor cores with float32 accumulation and a float32 C.
#include "cublas.hpp"

#include <cuda_fp16.h>

namespace {

template <typename T>
struct CublasFp16 {
  explicit CublasFp16(const kb::matmul::Operands<T>&) : handle(CUBLAS_DEFAULT_MATH) {}

  void launch(const kb::matmul::Operands<T>& p, kb::Launcher& launch) {
    kb::matmul::gemm_16bit(handle.on(launch.stream()), CUDA_R_16F, p.a(), p.b(), p.c(), p.M, p.N,
                           p.K);
    launch.record_library_call();
  }

  kb::matmul::CublasHandle handle;
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, CublasFp16, kb::DTypes<__half>,
                {.name = "matmul/cublas_fp16",
                 .version = "1",
                 .description = "cublasGemmEx on FP16 tensor cores (float32 accumulation and C)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_FP16})
