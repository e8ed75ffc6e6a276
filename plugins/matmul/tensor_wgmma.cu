// matmul/tensor_wgmma: float32 inputs multiplied in TF32 by Hopper's warpgroup tensor-core
// instruction (wgmma), operands brought in by the copy engine (TMA); see tensor_wgmma.cuh.
#include "tensor_wgmma.cuh"

namespace {

using namespace kb_wgmma;

template <typename T>
class TensorWgmma {
 public:
  // Setup, untimed: TF32 wgmma reads both operands K-major, so B is transposed once into a buffer
  // of this strategy. A is used in place unless its rows break TMA's 16-byte alignment (K not a
  // multiple of 4); then it too gets a zero-padded copy.
  explicit TensorWgmma(const kb::matmul::Problem<T>& p)
      : grid_(launch_grid(p.M, p.N, p.K)),
        ld_(padded_k<float>(p.K)),
        a_padded_(KB_DEVICE_CUDA, static_cast<std::size_t>(ld_ == p.K ? 0 : p.M * ld_)),
        b_transposed_(KB_DEVICE_CUDA, static_cast<std::size_t>(p.N * ld_)) {
    if (a_padded_.size() > 0) a_padded_.upload(k_major<float>(p.host_a(), p.M, p.K, false, ld_));
    b_transposed_.upload(k_major<float>(p.host_b(), p.K, p.N, true, ld_));
    const float* a = a_padded_.size() > 0 ? a_padded_.data() : p.a();
    a_map_ = make_tensor_map<float>(a, p.M, p.K, ld_, kBlockM);
    b_map_ = make_tensor_map<float>(b_transposed_.data(), p.N, p.K, ld_, kBlockN);
    allow_shared_memory<float>();
  }

  void launch(const kb::matmul::Problem<T>& p, kb::Launcher& launch) const {
    launch(wgmma_matmul<float>, grid_, dim3(kThreads), kSharedBytes, a_map_, b_map_, p.c(),
           static_cast<int>(p.M), static_cast<int>(p.N), static_cast<int>(p.K));
  }

  kb_verification verify(const kb::matmul::Problem<T>& p) const {
    return p.verify(kb::matmul::Precision::tf32);
  }

 private:
  dim3 grid_;
  std::int64_t ld_;
  kb::Array<float> a_padded_;
  kb::Array<float> b_transposed_;
  CUtensorMap a_map_;
  CUtensorMap b_map_;
};

}  // namespace

KBENCH_PLUGIN(kb::matmul::Problem, TensorWgmma, kb::DTypes<float>,
              {"matmul/tensor_wgmma", "1",
               "TF32 tensor cores, Hopper wgmma m64n256k8 fed by TMA (128x256x32 tiles, 4 stages, "
               "producer + 2 consumer warpgroups); B transposed to K-major at setup (A padded "
               "too when K % 4 != 0)",
               KB_DEVICE_CUDA, KB_FLAG_OWN_LAUNCH_SHAPE, "", nullptr})
