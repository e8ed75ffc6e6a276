// The vendor library: cuBLAS geam (C = alpha op(A) + beta op(B)) with op(A) = A^T, alpha = 1,
// beta = 0. cuBLAS is column-major, so our row-major rows x cols input is its cols x rows
// matrix (leading dimension cols), and the transpose it writes, rows x cols column-major with
// leading dimension rows, is our row-major cols x rows output.
#include <kbench/families/transpose.hpp>

#include <cublas_v2.h>

#include <string>

namespace {

void check(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  const kb_status kind = status == CUBLAS_STATUS_ALLOC_FAILED   ? KB_OOM
                         : status == CUBLAS_STATUS_NOT_SUPPORTED ||
                                 status == CUBLAS_STATUS_ARCH_MISMATCH
                             ? KB_UNSUPPORTED
                             : KB_ERROR;
  throw kb::Error(kind, std::string(call) + ": " + cublasGetStatusString(status));
}

template <typename T>
class Cublas {
 public:
  explicit Cublas(const kb::transpose::Operands<T>&) { check(cublasCreate(&handle_), "cublasCreate"); }
  ~Cublas() { cublasDestroy(handle_); }
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;

  void launch(const kb::transpose::Operands<T>& p, kb::Launcher& launch) {
    check(cublasSetStream(handle_, launch.stream()), "cublasSetStream");
    const T one = 1, zero = 0;
    // With beta = 0 B only has to be a readable rows x cols matrix: the input itself, not the
    // output, which holds NaN poison before the verified launch (NaN * 0 is NaN).
    if constexpr (std::is_same_v<T, float>) {
      check(cublasSgeam_64(handle_, CUBLAS_OP_T, CUBLAS_OP_N, p.rows, p.cols, &one, p.in(), p.cols,
                           &zero, p.in(), p.rows, p.out(), p.rows),
            "cublasSgeam_64");
    } else {
      check(cublasDgeam_64(handle_, CUBLAS_OP_T, CUBLAS_OP_N, p.rows, p.cols, &one, p.in(), p.cols,
                           &zero, p.in(), p.rows, p.out(), p.rows),
            "cublasDgeam_64");
    }
    launch.record_library_call();
  }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace

KBENCH_STRATEGY(kb::transpose::Operands, Cublas, kb::FloatDTypes,
                {.name = "transpose/cublas",
                 .version = "1",
                 .description = "cuBLAS geam (op(A) = A^T, beta = 0), float32/float64",
                 .device = KB_DEVICE_CUDA,
                 .flags = KB_FLAG_OWN_LAUNCH_SHAPE})
