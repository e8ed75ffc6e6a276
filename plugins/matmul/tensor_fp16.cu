// matmul/tensor_fp16: float16 inputs multiplied by Hopper's warpgroup tensor-core instruction
// (wgmma m64n256k16, f16 operands) with float32 accumulation into a float32 C: tensor_bf16's
// kernel on the other 16-bit type (see tensor_wgmma.cuh).
#include "tensor_wgmma.cuh"

namespace {

// Float16 cases only: the inputs are exact, so the family holds it to float32 accumulation.
template <typename T>
struct TensorFp16 : kb_wgmma::WgmmaStrategy<T, __half> {
  using Strategy = kb_wgmma::WgmmaStrategy<T, __half>;
  using Strategy::Strategy;
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, TensorFp16, kb::DTypes<__half>,
                {.name = "matmul/tensor_fp16",
                 .version = "3",
                 .description = "FP16 tensor cores with float32 accumulation, Hopper wgmma "
                                "m64n256k16 fed by TMA (128x256x64 tiles in grouped order, "
                                "persistent blocks, 4 stages, producer + 2 consumer warpgroups); "
                                "A and B made K-major in each launch",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_FP16})
