// What the device itself gains per launch when kernels run back to back instead of one at a time:
// a launch alone pays the GPU's own cost of starting it, which a predecessor on the stream hides.
// Measured on kbench's own kernel, one that waits for a given time, held as the samples are: the
// allowance a strategy's samples of several launches may beat its one-launch samples by. Anything
// beyond it is work the launches that were never checked did not do.
#pragma once

#include "measure/blocking_kernel.hpp"
#include "measure/cuda_timer.hpp"

#include <cuda_runtime_api.h>

namespace kb {

// Microseconds per launch, for a kernel of `kernel_us` run `launches` at a time; throws kb::Error
// when the device fails.
double back_to_back_gain_us(cudaStream_t stream, CudaTimer& timer, BlockingKernel& blocker,
                            double kernel_us, int launches);

}  // namespace kb
