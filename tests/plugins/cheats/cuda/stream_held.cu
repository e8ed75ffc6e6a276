// Cheat (CUDA): detects that it is being timed. kbench holds the stream back with a spinning kernel
// while it enqueues a timed sample (to hide launch latency), so cudaStreamQuery on the given stream
// says cudaErrorNotReady exactly when run is timed. Then it transposes half the rows; on an idle
// stream (the verdict after timing, validate) it transposes all of them. Written against plugin.h
// and the CUDA runtime alone. Expected (predicted, to confirm on a GPU): verify_failed, check 'timed
// launch' (the checked samples are timed, held, like any other).
#include <kbench/plugin.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#ifndef KB_CUDA_ARCHS
#define KB_CUDA_ARCHS ""
#endif

namespace {

__global__ void transpose(const std::uint32_t* in, std::uint32_t* out, std::int64_t rows,
                          std::int64_t cols, std::int64_t rows_done) {
  const std::int64_t c = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::int64_t r = std::int64_t{blockIdx.y} * blockDim.y + threadIdx.y;
  if (r < rows_done && c < cols) out[c * rows + r] = in[r * cols + c];
}

kb_status run(void*, const kb_case* c, const kb_buffers* b, void* stream, kb_launch_config* config,
              kb_message* msg) {
  const auto given = static_cast<cudaStream_t>(stream);
  const bool timed = cudaStreamQuery(given) == cudaErrorNotReady;
  cudaGetLastError();  // cudaErrorNotReady is not sticky, but leave nothing behind
  const std::int64_t rows = c->shape[0], cols = c->shape[1];
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 7) / 8));
  transpose<<<grid, block, 0, given>>>(static_cast<const std::uint32_t*>(b->inputs[0].data),
                                       static_cast<std::uint32_t*>(b->outputs[0].data), rows, cols,
                                       timed ? rows / 2 : rows);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    std::snprintf(msg->text, sizeof msg->text, "%s", cudaGetErrorString(e));
    return KB_ERROR;
  }
  *config = kb_launch_config{{grid.x, grid.y, 1}, {block.x, block.y, 1}, 1};
  return KB_OK;
}

}  // namespace

extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p = [] {
    KernelPlugin q{};
    q.abi_version = KB_ABI_VERSION;
    q.struct_size = sizeof(KernelPlugin);
    q.name = "transpose/cheat_stream_held";
    q.family = "transpose";
    q.version = "1";
    q.description = "red team: half the work when cudaStreamQuery says the stream is held";
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
