// Errors inside a plugin: thrown as kb::Error, turned into a kb_status + message at the ABI edge
// (metadata.hpp's kb::guarded), so no exception ever crosses into the runner.
#pragma once

#include <kbench/plugin.h>

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace kb {

class Error : public std::runtime_error {
 public:
  Error(kb_status status, const std::string& what) : std::runtime_error(what), status_(status) {}
  kb_status status() const noexcept { return status_; }

 private:
  kb_status status_;
};

// A wrong output found by a check that has more to say than a kb_verification holds: the
// verification (its metrics, counts) and a message both reach the results row.
class VerifyFailure : public Error {
 public:
  VerifyFailure(const kb_verification& result, const std::string& what)
      : Error(KB_VERIFY_FAILED, what), result_(result) {
    result_.passed = 0;
  }
  const kb_verification& result() const noexcept { return result_; }

 private:
  kb_verification result_;
};

// cudaErrorMemoryAllocation is reported as KB_OOM (the next case may still fit); a missing kernel
// image as KB_UNSUPPORTED; everything else as KB_ERROR.
inline kb_status status_of(cudaError_t error) noexcept {
  switch (error) {
    case cudaErrorMemoryAllocation: return KB_OOM;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorInvalidKernelImage: return KB_UNSUPPORTED;
    default: return KB_ERROR;
  }
}

inline void cuda_check(cudaError_t error, const char* expression, const char* file, int line) {
  if (error == cudaSuccess) return;
  throw Error(status_of(error), std::string(cudaGetErrorName(error)) + ": " +
                                    cudaGetErrorString(error) + " (" + expression + " at " + file +
                                    ":" + std::to_string(line) + ")");
}

}  // namespace kb

#define KB_CUDA_CHECK(expression) ::kb::cuda_check((expression), #expression, __FILE__, __LINE__)
