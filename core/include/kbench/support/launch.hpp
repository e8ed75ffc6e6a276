// Kernel launches from a plugin: records the configuration for the results row and checks the
// launch, so a strategy's launch function is one line per kernel.
#pragma once

#include <kbench/support/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <tuple>
#include <utility>

#ifndef KB_CUDA_ARCHS
#define KB_CUDA_ARCHS ""
#endif

namespace kb {

class Launcher {
 public:
  Launcher(cudaStream_t stream, kb_launch_config& config) : stream_(stream), config_(config) {}

  cudaStream_t stream() const noexcept { return stream_; }

  // Enqueues kernel<<<grid, block, shared_bytes, stream>>>(args...). Arguments are converted to
  // the kernel's parameter types first, as the <<<>>> syntax would.
  template <typename... Params, typename... Args>
  void operator()(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
                  Args&&... args) {
    std::tuple<Params...> values(std::forward<Args>(args)...);
    enqueue(reinterpret_cast<const void*>(kernel), grid, block, shared_bytes, values,
            std::index_sequence_for<Params...>{});
  }

  // For work enqueued by a library (cuBLAS, CUB): counts it and checks for launch errors.
  void record_library_call() {
    ++config_.kernels;
    check(cudaGetLastError());
  }

 private:
  template <typename Tuple, std::size_t... I>
  void enqueue(const void* kernel, dim3 grid, dim3 block, std::size_t shared_bytes, Tuple& values,
               std::index_sequence<I...>) {
    void* pointers[sizeof...(I) + 1] = {static_cast<void*>(&std::get<I>(values))..., nullptr};
    config_.grid[0] = grid.x, config_.grid[1] = grid.y, config_.grid[2] = grid.z;
    config_.block[0] = block.x, config_.block[1] = block.y, config_.block[2] = block.z;
    ++config_.kernels;
    check(cudaLaunchKernel(kernel, grid, block, pointers, shared_bytes, stream_));
  }

  static void check(cudaError_t error) {
    // A failed launch also sets the thread's last error; clear it, or the runner's next CUDA
    // call would report it again.
    if (error != cudaSuccess) cudaGetLastError();
    if (error == cudaErrorNoKernelImageForDevice) {
      throw Error(KB_UNSUPPORTED, std::string("no kernel image for this device; the plugin was "
                                              "built for ") + KB_CUDA_ARCHS);
    }
    KB_CUDA_CHECK(error);
  }

  cudaStream_t stream_;
  kb_launch_config& config_;
};

}  // namespace kb
