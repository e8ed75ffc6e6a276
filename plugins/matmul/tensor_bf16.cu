// matmul/tensor_bf16: bfloat16 inputs (float32 ones rounded to bf16, nearest even, in each launch)
// multiplied by Hopper's warpgroup tensor-core instruction (wgmma) with float32 accumulation into
// a float32 C; see tensor_wgmma.cuh.
#include "tensor_wgmma.cuh"

namespace {

template <typename T>
struct TensorBf16 : kb_wgmma::WgmmaStrategy<T, __nv_bfloat16> {
  using Strategy = kb_wgmma::WgmmaStrategy<T, __nv_bfloat16>;
  using Strategy::Strategy;
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, TensorBf16, kb::matmul::Bf16TensorDTypes,
                {.name = "matmul/tensor_bf16",
                 .version = "5",
                 .description = "BF16 tensor cores with float32 accumulation, Hopper wgmma "
                                "m64n256k16 fed by TMA (128x256x64 tiles in grouped order, "
                                "persistent blocks, 4 stages, producer + 2 consumer warpgroups); "
                                "A and B made K-major (float32 ones rounded to bf16) in each "
                                "launch",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_BF16})
