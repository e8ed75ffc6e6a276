// One launch of the case under test, as the timing loop and the self-checks call it: the plugin's
// state, the configuration it reports and the message it fails with are bound in, so the loops
// see a stream and a status only.
#pragma once

#include <kbench/plugin.h>
#include <kbench/support/error.hpp>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <functional>

namespace kb {

using LaunchOnce = std::function<kb_status(cudaStream_t)>;

// A CUDA error as a hook status, with `what` and the error's name in the message.
inline kb_status from_cuda(cudaError_t error, kb_message& message, const char* what) {
  if (error == cudaSuccess) return KB_OK;
  std::snprintf(message.text, sizeof message.text, "%s: %s: %s", what, cudaGetErrorName(error),
                cudaGetErrorString(error));
  return status_of(error);
}

}  // namespace kb
