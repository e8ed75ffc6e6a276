// Hiding launch latency the way nvbench does: a kernel that spins until the host releases it
// holds the stream while the host enqueues the start event, the launch and the stop event, so the
// timed region holds the kernel alone and not the host's time to submit it.
#pragma once

#include <cuda_runtime_api.h>

namespace kb {

class BlockingKernel {
 public:
  BlockingKernel();  // allocates the host-mapped flags
  ~BlockingKernel();
  BlockingKernel(const BlockingKernel&) = delete;
  BlockingKernel& operator=(const BlockingKernel&) = delete;

  void block(cudaStream_t stream);  // enqueue the spinning kernel
  void release();                   // let it finish
  // True when the last spin gave up on its own after its timeout (the host never released it
  // in time, e.g. because the launch in between waited for the device itself).
  bool timed_out() const;

 private:
  volatile int* release_flag_ = nullptr;
  volatile int* timeout_flag_ = nullptr;
};

// An empty kernel on `stream`: what a synchronised launch costs the host when the GPU has nothing
// to do, the baseline of the row's host-time check.
void launch_empty_kernel(cudaStream_t stream);

}  // namespace kb
