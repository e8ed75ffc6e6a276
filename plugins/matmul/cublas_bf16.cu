// The vendor baseline of matmul/tensor_bf16, on the same terms: bfloat16 inputs as they are, or
// float32 ones rounded to bf16 (nearest even) in each launch; cublasGemmEx on the BF16 tensor
// cores with float32 accumulation and a float32 C. Held to BF16's tolerance, as tensor_bf16 is.
#include "cublas.hpp"

#include <cuda_bf16.h>

#include <algorithm>

namespace {

__global__ void round_to_bf16(const float* in, std::int64_t count, __nv_bfloat16* out) {
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    out[i] = __float2bfloat16_rn(in[i]);
  }
}

template <typename T>
struct CublasBf16 {
  static constexpr bool kRounds = std::is_same_v<T, float>;

  explicit CublasBf16(const kb::matmul::Operands<T>& p)
      : handle(CUBLAS_DEFAULT_MATH),
        rounded_a(KB_DEVICE_CUDA, kRounds ? static_cast<std::size_t>(p.M * p.K) : 0),
        rounded_b(KB_DEVICE_CUDA, kRounds ? static_cast<std::size_t>(p.K * p.N) : 0) {}

  void launch(const kb::matmul::Operands<T>& p, kb::Launcher& launch) {
    if constexpr (kRounds) {
      const auto round = [&](const float* in, kb::Array<__nv_bfloat16>& out) {
        const auto grid = static_cast<unsigned>(std::min<std::size_t>((out.size() + 255) / 256, 4096));
        launch(round_to_bf16, grid, 256, 0, in, static_cast<std::int64_t>(out.size()), out.data());
      };
      round(p.a(), rounded_a);
      round(p.b(), rounded_b);
      kb::matmul::gemm_16bit(handle.on(launch.stream()), CUDA_R_16BF, rounded_a.data(),
                             rounded_b.data(), p.c(), p.M, p.N, p.K);
    } else {
      kb::matmul::gemm_16bit(handle.on(launch.stream()), CUDA_R_16BF, p.a(), p.b(), p.c(), p.M,
                             p.N, p.K);
    }
    launch.record_library_call();
  }

  kb::matmul::CublasHandle handle;
  kb::Array<__nv_bfloat16> rounded_a, rounded_b;  // empty for bfloat16 cases
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, CublasBf16, kb::matmul::Bf16TensorDTypes,
                {.name = "matmul/cublas_bf16",
                 .version = "2",
                 .description = "cublasGemmEx on BF16 tensor cores (float32 accumulation and C); "
                                "float32 A and B rounded to bf16 in each launch",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_BF16})
