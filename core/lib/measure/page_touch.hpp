// After the referee worked on the shared operands (a draw, a poison), the GPU has run another
// process's context over them and over the family's own buffers: the worker's address translations
// of the operands are cold, and the inputs the samples found in L2 may have been pushed out by the
// family's copies. The next kernel pays for both (a third of a 10 us reduction after a near draw).
// The timed samples never pay it, so before the launch that is held against them the inputs are
// read once whole, as every sample reads them, and the outputs' pages touched.
#pragma once

#include <kbench/plugin.h>

#include <cuda_runtime_api.h>

namespace kb {

// Throws kb::Error when the device fails.
void touch_pages(const kb_buffers& buffers, cudaStream_t stream);

}  // namespace kb
