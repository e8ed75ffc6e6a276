// A built kernel on the device, through the CUDA runtime's library API (cudaLibraryLoadData,
// cudaLibraryGetKernel, cudaLaunchKernelExC: the runtime's face of the driver's cuLibraryLoadData,
// cuLibraryGetKernel and cuLaunchKernelEx, so kbench links nothing more and a machine without a
// driver fails here in one line). The device must be current.
#pragma once

#include "kernel/kernel_build.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

#include <memory>
#include <string>
#include <vector>

namespace kb {

class LoadedKernel {
 public:
  // Loads `built` (a PTX is JIT-compiled by the driver, its error log kept), finds each launch's
  // kernel and holds its parameters to the manifest's where the driver tells them
  // (cudaFuncGetParamInfo). Throws KernelBuildError.
  LoadedKernel(const KernelManifest& manifest, const BuiltKernel& built);
  ~LoadedKernel();
  LoadedKernel(const LoadedKernel&) = delete;
  LoadedKernel& operator=(const LoadedKernel&) = delete;

  std::size_t count() const { return kernels_.size(); }  // one per launch
  const void* function(std::size_t launch) const {
    return reinterpret_cast<const void*>(kernels_[launch].kernel);
  }
  int static_shared_bytes(std::size_t launch) const { return kernels_[launch].static_shared; }

 private:
  struct Kernel {
    cudaKernel_t kernel = nullptr;
    int static_shared = 0;
  };
  cudaLibrary_t library_ = nullptr;
  std::vector<Kernel> kernels_;
};

// The most shared memory a block may have on `device` (opted in), in bytes.
int max_shared_bytes(int device);

// The most shared memory a block may have (opted in) on an architecture ("sm_90", "compute_90"),
// from the CUDA programming guide's table; 0 for one the table does not know. What a run without
// a device holds a launch to.
std::uint64_t arch_max_shared_bytes(const std::string& arch);

// Why the launch cannot have the shared memory it asks for (its dynamic bytes and the kernel's
// static ones above the device's limit); "" when it can. Raises the kernel's dynamic limit where
// the launch needs more than the default 48 KiB.
std::string fit_shared_memory(const LoadedKernel& kernel, std::size_t launch,
                              std::uint64_t dynamic_bytes, int device);

}  // namespace kb
