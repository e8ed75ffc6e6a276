// matmul/tensor_bf16: float32 inputs rounded to bf16 once at setup, multiplied by Hopper's
// warpgroup tensor-core instruction (wgmma) with float32 accumulation; see tensor_wgmma.cuh.
#include "tensor_wgmma.cuh"

namespace {

using namespace kb_wgmma;
using bf16 = __nv_bfloat16;

template <typename T>
class TensorBf16 {
 public:
  // Setup, untimed: A and B converted to bf16 (round to nearest even) into buffers of this
  // strategy, both K-major (B transposed) with rows padded to 16 bytes for TMA.
  explicit TensorBf16(const kb::matmul::Problem<T>& p)
      : grid_(launch_grid(p.M, p.N, p.K)),
        ld_(padded_k<bf16>(p.K)),
        a_(KB_DEVICE_CUDA, static_cast<std::size_t>(p.M * ld_)),
        b_transposed_(KB_DEVICE_CUDA, static_cast<std::size_t>(p.N * ld_)) {
    a_.upload(k_major<bf16>(p.host_a(), p.M, p.K, false, ld_));
    b_transposed_.upload(k_major<bf16>(p.host_b(), p.K, p.N, true, ld_));
    a_map_ = make_tensor_map<bf16>(a_.data(), p.M, p.K, ld_, kBlockM);
    b_map_ = make_tensor_map<bf16>(b_transposed_.data(), p.N, p.K, ld_, kBlockN);
    allow_shared_memory<bf16>();
  }

  void launch(const kb::matmul::Problem<T>& p, kb::Launcher& launch) const {
    launch(wgmma_matmul<bf16>, grid_, dim3(kThreads), kSharedBytes, a_map_, b_map_, p.c(),
           static_cast<int>(p.M), static_cast<int>(p.N), static_cast<int>(p.K));
  }

  kb_verification verify(const kb::matmul::Problem<T>& p) const {
    return p.verify(kb::matmul::Precision::bf16);
  }

 private:
  dim3 grid_;
  std::int64_t ld_;
  kb::Array<bf16> a_;
  kb::Array<bf16> b_transposed_;
  CUtensorMap a_map_;
  CUtensorMap b_map_;
};

}  // namespace

KBENCH_PLUGIN(kb::matmul::Problem, TensorBf16, kb::DTypes<float>,
              {"matmul/tensor_bf16", "1",
               "BF16 tensor cores with float32 accumulation, Hopper wgmma m64n256k16 fed by TMA "
               "(128x256x64 tiles, 4 stages, producer + 2 consumer warpgroups); A and B rounded "
               "to bf16 and made K-major at setup",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE, "", nullptr})
