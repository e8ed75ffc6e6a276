// The device a plugin's set-up runs on (the calling thread's current device), as the plugin needs
// to choose a grid or a variant: one attribute at a time, checked.
#pragma once

#include <kbench/support/error.hpp>

#include <cuda_runtime_api.h>

namespace kb {

inline int current_device_attribute(cudaDeviceAttr attribute) {
  int device = 0;
  int value = 0;
  KB_CUDA_CHECK(cudaGetDevice(&device));
  KB_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  return value;
}

}  // namespace kb
