// matmul/tensor_wgmma: float32 inputs multiplied in TF32 by Hopper's warpgroup tensor-core
// instruction (wgmma), operands brought in by the copy engine (TMA); see tensor_wgmma.cuh.
#include "tensor_wgmma.cuh"

namespace {

template <typename T>
struct TensorWgmma : kb_wgmma::WgmmaStrategy<T, float> {
  using Strategy = kb_wgmma::WgmmaStrategy<T, float>;
  using Strategy::Strategy;
};

}  // namespace

KBENCH_STRATEGY(kb::matmul::Operands, TensorWgmma, kb::DTypes<float>,
                {.name = "matmul/tensor_wgmma",
                 .version = "5",
                 .description = "TF32 tensor cores, Hopper wgmma m64n256k8 fed by TMA (128x256x32 "
                                "tiles in grouped order, persistent blocks, 4 stages, producer + "
                                "2 consumer warpgroups); B transposed to K-major in each launch "
                                "(A padded too when K % 4 != 0)",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_TF32})
