// A 64-bit digest of a buffer's bytes, where the buffer lives (a kernel for device memory, all
// host threads for host memory): the runner's own witness that a launch left the inputs as the
// family drew them, and that two launches on the same inputs wrote the same output bits.
#pragma once

#include <kbench/plugin.h>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kb {

// Throws kb::Error when the device fails.
std::uint64_t buffer_digest(const kb_operand& operand, kb_device_kind where, cudaStream_t stream);

}  // namespace kb
