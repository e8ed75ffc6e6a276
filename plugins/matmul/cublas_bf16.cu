// The vendor baseline of matmul/tensor_bf16, on the same terms: A and B rounded to bf16 (nearest
// even) once at setup, cublasGemmEx on the BF16 tensor cores with float32 accumulation and a
// float32 C. Verified at bf16 tolerance.
#include "cublas.hpp"

#include <cuda_bf16.h>

namespace {

std::vector<__nv_bfloat16> to_bf16(const kb::HostVector<float>& values) {
  return std::vector<__nv_bfloat16>(values.begin(), values.end());
}

template <typename T>
struct CublasBf16 {
  explicit CublasBf16(const kb::matmul::Problem<T>& p)
      : handle(CUBLAS_DEFAULT_MATH), a(KB_DEVICE_CUDA, p.host_a().size()),
        b(KB_DEVICE_CUDA, p.host_b().size()) {
    a.upload(to_bf16(p.host_a()));
    b.upload(to_bf16(p.host_b()));
  }

  // Row-major C = A B through column-major cuBLAS, as kb::matmul::gemm does.
  void launch(const kb::matmul::Problem<T>& p, kb::Launcher& launch) {
    const float one = 1.0f, zero = 0.0f;
    kb::matmul::cublas_check(
        cublasGemmEx_64(handle.on(launch.stream()), CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K, &one,
                        b.data(), CUDA_R_16BF, p.N, a.data(), CUDA_R_16BF, p.K, &zero, p.c(),
                        CUDA_R_32F, p.N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
    launch.record_library_call();
  }

  kb_verification verify(const kb::matmul::Problem<T>& p) const {
    return p.verify(kb::matmul::Precision::bf16);
  }

  kb::matmul::CublasHandle handle;
  kb::Array<__nv_bfloat16> a, b;
};

}  // namespace

KBENCH_PLUGIN(kb::matmul::Problem, CublasBf16, kb::DTypes<float>,
              {"matmul/cublas_bf16", "1",
               "cublasGemmEx on BF16 tensor cores (float32 accumulation and C); A and B rounded "
               "to bf16 at setup",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_BF16})
