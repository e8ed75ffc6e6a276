// After the referee worked on the shared operands (a draw, a poison), the GPU has run another
// process's context: the worker's address translations of the operands are cold, and its next
// kernel pays for them (a few microseconds on a 2048^2 transpose, a third of a kernel that short).
// The timed launches never pay it: one read per page of every operand, before the launch that is
// held against them, puts the translations back without moving the data through the caches.
#pragma once

#include <kbench/plugin.h>

#include <cuda_runtime_api.h>

namespace kb {

// Throws kb::Error when the device fails.
void touch_pages(const kb_buffers& buffers, cudaStream_t stream);

}  // namespace kb
