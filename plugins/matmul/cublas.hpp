// What the cuBLAS plugins share: a cuBLAS handle with its own workspace, and the row-major
// product through column-major cuBLAS.
#pragma once

#include <kbench/families/matmul.hpp>

#include <cublas_v2.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace kb::matmul {

inline void cublas_check(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw Error(status == CUBLAS_STATUS_ALLOC_FAILED ? KB_OOM : KB_ERROR,
              std::string(call) + ": " + cublasGetStatusName(status) + " (" +
                  cublasGetStatusString(status) + ")");
}

// Created once per case, outside the timed launches. cuBLAS resets the workspace whenever the
// stream changes, so both are set together.
class CublasHandle {
 public:
  explicit CublasHandle(cublasMath_t math)
      : workspace_(KB_DEVICE_CUDA, kWorkspaceBytes) {
    cublas_check(cublasCreate(&handle_), "cublasCreate");
    cublas_check(cublasSetMathMode(handle_, math), "cublasSetMathMode");
  }
  ~CublasHandle() { cublasDestroy(handle_); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;

  cublasHandle_t on(cudaStream_t stream) {
    if (!bound_ || stream != stream_) {
      cublas_check(cublasSetStream(handle_, stream), "cublasSetStream");
      cublas_check(cublasSetWorkspace(handle_, workspace_.data(), workspace_.bytes()),
                   "cublasSetWorkspace");
      stream_ = stream, bound_ = true;
    }
    return handle_;
  }

 private:
  static constexpr std::size_t kWorkspaceBytes = 32u << 20;  // cuBLAS's advice for Hopper
  cublasHandle_t handle_ = nullptr;
  Array<unsigned char> workspace_;
  cudaStream_t stream_ = nullptr;
  bool bound_ = false;
};

// Row-major C = A B is column-major C^T = B^T A^T, and a row-major matrix read as column-major is
// its transpose: so B and A go in swapped, untransposed, with their row lengths as leading
// dimensions.
inline void gemm(cublasHandle_t handle, const Operands<float>& p) {
  const float one = 1.0f, zero = 0.0f;
  cublas_check(cublasSgemm_64(handle, CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K, &one, p.b(), p.N,
                              p.a(), p.K, &zero, p.c(), p.N),
               "cublasSgemm");
}
inline void gemm(cublasHandle_t handle, const Operands<double>& p) {
  const double one = 1.0, zero = 0.0;
  cublas_check(cublasDgemm_64(handle, CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K, &one, p.b(), p.N,
                              p.a(), p.K, &zero, p.c(), p.N),
               "cublasDgemm");
}

// C (float32) = A B from 16-bit A and B (`type`: CUDA_R_16BF or CUDA_R_16F) on the tensor cores,
// accumulated in float32.
inline void gemm_16bit(cublasHandle_t handle, cudaDataType_t type, const void* a, const void* b,
                       float* c, std::int64_t M, std::int64_t N, std::int64_t K) {
  const float one = 1.0f, zero = 0.0f;
  cublas_check(cublasGemmEx_64(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, b, type, N, a,
                               type, K, &zero, c, CUDA_R_32F, N, CUBLAS_COMPUTE_32F,
                               CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");
}

}  // namespace kb::matmul
