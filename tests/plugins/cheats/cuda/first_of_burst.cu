// Cheat (CUDA): does the work only in the first launch of a burst. A held sample of several
// launches calls run back to back, microseconds apart; a launch that follows the one before by
// less than 20 us enqueues nothing, and the output keeps the first launch's answer (the inputs
// have not changed). Every checked launch comes alone, after a poison, and is honest. Written
// against plugin.h and the CUDA runtime alone. Expected: implausible, launch accounting (the
// samples of several launches are faster per launch than a launch alone beyond the device's own
// back-to-back gain).
#include <kbench/plugin.h>

#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>

#ifndef KB_CUDA_ARCHS
#define KB_CUDA_ARCHS ""
#endif

namespace {

constexpr double kBurstGapUs = 20;

__global__ void transpose(const std::uint32_t* in, std::uint32_t* out, std::int64_t rows,
                          std::int64_t cols) {
  const std::int64_t c = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::int64_t r = std::int64_t{blockIdx.y} * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

std::chrono::steady_clock::time_point last_call;

kb_status run(void*, const kb_case* c, const kb_buffers* b, void* stream, kb_launch_config* config,
              kb_message* msg) {
  const auto now = std::chrono::steady_clock::now();
  const double gap_us = std::chrono::duration<double, std::micro>(now - last_call).count();
  last_call = now;
  const std::int64_t rows = c->shape[0], cols = c->shape[1];
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 7) / 8));
  *config = kb_launch_config{{grid.x, grid.y, 1}, {block.x, block.y, 1}, 1};
  if (gap_us < kBurstGapUs) return KB_OK;
  transpose<<<grid, block, 0, static_cast<cudaStream_t>(stream)>>>(
      static_cast<const std::uint32_t*>(b->inputs[0].data),
      static_cast<std::uint32_t*>(b->outputs[0].data), rows, cols);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    std::snprintf(msg->text, sizeof msg->text, "%s", cudaGetErrorString(e));
    return KB_ERROR;
  }
  return KB_OK;
}

}  // namespace

extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p = [] {
    KernelPlugin q{};
    q.abi_version = KB_ABI_VERSION;
    q.struct_size = sizeof(KernelPlugin);
    q.name = "transpose/cheat_first_of_burst";
    q.family = "transpose";
    q.version = "1";
    q.description = "red team: works only in the first launch of a burst of launches";
    q.device = KB_DEVICE_CUDA;
    q.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
    q.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
    q.ops = "";
    q.cuda_archs = KB_CUDA_ARCHS;
    q.run = run;
    return q;
  }();
  return &p;
}
