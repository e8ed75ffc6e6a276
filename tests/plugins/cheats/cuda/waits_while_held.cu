// Cheat (CUDA): while the given stream is held (cudaStreamQuery says not ready), it transposes on a
// stream of its own and waits for it on the host inside run, then puts only an empty kernel on the
// given stream, so the held sample's events time an empty kernel; on a free stream it transposes
// there, honestly (CUPTI's batch, the verdict). Written against plugin.h and the CUDA runtime
// alone. Expected: the case timed as one that synchronises (`plain`, its row saying the launch
// kept the host waiting while the stream was held), at its honest time: no faster than honest.
#include <kbench/plugin.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#ifndef KB_CUDA_ARCHS
#define KB_CUDA_ARCHS ""
#endif

namespace {

__global__ void transpose(const std::uint32_t* in, std::uint32_t* out, std::int64_t rows,
                          std::int64_t cols) {
  const std::int64_t c = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::int64_t r = std::int64_t{blockIdx.y} * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

__global__ void nothing() {}

struct State {
  cudaStream_t own = nullptr;
};

kb_status prepare(const kb_case*, const kb_buffers*, void** state, kb_message* msg) {
  auto* s = new State;
  if (cudaStreamCreateWithFlags(&s->own, cudaStreamNonBlocking) != cudaSuccess) {
    delete s;
    std::snprintf(msg->text, sizeof msg->text, "cudaStreamCreate failed");
    return KB_ERROR;
  }
  *state = s;
  return KB_OK;
}

kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
              kb_launch_config* config, kb_message* msg) {
  auto* s = static_cast<State*>(state);
  const auto given = static_cast<cudaStream_t>(stream);
  const bool held = cudaStreamQuery(given) == cudaErrorNotReady;
  cudaGetLastError();
  const std::int64_t rows = c->shape[0], cols = c->shape[1];
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 7) / 8));
  const auto* in = static_cast<const std::uint32_t*>(b->inputs[0].data);
  auto* out = static_cast<std::uint32_t*>(b->outputs[0].data);
  if (held) {
    transpose<<<grid, block, 0, s->own>>>(in, out, rows, cols);
    cudaStreamSynchronize(s->own);
    nothing<<<1, 1, 0, given>>>();
  } else {
    transpose<<<grid, block, 0, given>>>(in, out, rows, cols);
  }
  *config = kb_launch_config{{grid.x, grid.y, 1}, {block.x, block.y, 1}, 1};
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    std::snprintf(msg->text, sizeof msg->text, "%s", cudaGetErrorString(e));
    return KB_ERROR;
  }
  return KB_OK;
}

void release(void* state) {
  auto* s = static_cast<State*>(state);
  cudaStreamDestroy(s->own);
  delete s;
}

}  // namespace

extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p = [] {
    KernelPlugin q{};
    q.abi_version = KB_ABI_VERSION;
    q.struct_size = sizeof(KernelPlugin);
    q.name = "transpose/cheat_waits_while_held";
    q.family = "transpose";
    q.version = "1";
    q.description = "red team: works on its own stream and waits on the host while timed";
    q.device = KB_DEVICE_CUDA;
    q.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
    q.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
    q.ops = "";
    q.cuda_archs = KB_CUDA_ARCHS;
    q.prepare = prepare;
    q.run = run;
    q.release = release;
    return q;
  }();
  return &p;
}
