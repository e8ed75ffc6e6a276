// The vendor baseline of matmul/tensor_bf16, on the same terms: bfloat16 inputs as they are, or
// float32 ones rounded to bf16 (nearest even) once at setup; cublasGemmEx on the BF16 tensor cores
// with float32 accumulation and a float32 C. Verified as tensor_bf16 is.
#include "cublas.hpp"

#include <cuda_bf16.h>

namespace {

std::vector<__nv_bfloat16> to_bf16(const kb::HostVector<float>& values) {
  return std::vector<__nv_bfloat16>(values.begin(), values.end());
}

template <typename T>
struct CublasBf16 {
  static constexpr bool kRounds = std::is_same_v<T, float>;

  explicit CublasBf16(const kb::matmul::Problem<T>& p)
      : handle(CUBLAS_DEFAULT_MATH), rounded_a(KB_DEVICE_CUDA, kRounds ? p.host_a().size() : 0),
        rounded_b(KB_DEVICE_CUDA, kRounds ? p.host_b().size() : 0) {
    if constexpr (kRounds) {
      rounded_a.upload(to_bf16(p.host_a()));
      rounded_b.upload(to_bf16(p.host_b()));
    }
  }

  const __nv_bfloat16* a(const kb::matmul::Problem<T>& p) const {
    if constexpr (kRounds) return rounded_a.data(); else return p.a();
  }
  const __nv_bfloat16* b(const kb::matmul::Problem<T>& p) const {
    if constexpr (kRounds) return rounded_b.data(); else return p.b();
  }

  void launch(const kb::matmul::Problem<T>& p, kb::Launcher& launch) {
    kb::matmul::gemm_16bit(handle.on(launch.stream()), CUDA_R_16BF, a(p), b(p), p.c(), p.M, p.N,
                           p.K);
    launch.record_library_call();
  }

  kb_verification verify(const kb::matmul::Problem<T>& p) const {
    return p.verify(kRounds ? kb::matmul::Precision::bf16 : kb::matmul::precision_of<T>());
  }

  kb::matmul::CublasHandle handle;
  kb::Array<__nv_bfloat16> rounded_a, rounded_b;  // empty for bfloat16 cases
};

}  // namespace

KBENCH_PLUGIN(kb::matmul::Problem, CublasBf16, kb::matmul::Bf16TensorDTypes,
              {"matmul/cublas_bf16", "1",
               "cublasGemmEx on BF16 tensor cores (float32 accumulation and C); float32 A and B "
               "rounded to bf16 at setup",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_BF16})
