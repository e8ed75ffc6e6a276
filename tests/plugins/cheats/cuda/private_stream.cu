// Cheat (CUDA): work left running after run returns. run launches the transpose on a stream of its
// own, not the one it is given, and returns: the runner's events on its stream time nothing, and
// the output is written whenever the private stream gets to it. Written against plugin.h and the
// CUDA runtime alone. Expected (predicted, to confirm on a GPU): implausible, stream check (a
// captured launch put no work on the given stream), or verify_failed, check 'timed launch' where a
// checked sample's output is read before the private stream wrote it.
#include <kbench/plugin.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <new>

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

struct State {
  cudaStream_t own = nullptr;
};

kb_status prepare(const kb_case*, const kb_buffers*, void** state, kb_message* msg) {
  State* s = new (std::nothrow) State;
  if (s == nullptr) return KB_OOM;
  if (cudaStreamCreateWithFlags(&s->own, cudaStreamNonBlocking) != cudaSuccess) {
    delete s;
    std::snprintf(msg->text, sizeof msg->text, "cannot create a stream");
    return KB_ERROR;
  }
  *state = s;
  return KB_OK;
}

kb_status run(void* state, const kb_case* c, const kb_buffers* b, void*, kb_launch_config* config,
              kb_message* msg) {
  const State* s = static_cast<const State*>(state);
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((c->shape[1] + 31) / 32),
                  static_cast<unsigned>((c->shape[0] + 7) / 8));
  transpose<<<grid, block, 0, s->own>>>(static_cast<const std::uint32_t*>(b->inputs[0].data),
                                         static_cast<std::uint32_t*>(b->outputs[0].data),
                                         c->shape[0], c->shape[1]);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    std::snprintf(msg->text, sizeof msg->text, "%s", cudaGetErrorString(e));
    return KB_ERROR;
  }
  *config = kb_launch_config{{grid.x, grid.y, 1}, {block.x, block.y, 1}, 1};
  return KB_OK;
}

void release(void* state) {
  State* s = static_cast<State*>(state);
  cudaStreamSynchronize(s->own);
  cudaStreamDestroy(s->own);
  delete s;
}

}  // namespace

extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p = [] {
    KernelPlugin q{};
    q.abi_version = KB_ABI_VERSION;
    q.struct_size = sizeof(KernelPlugin);
    q.name = "transpose/cheat_private_stream";
    q.family = "transpose";
    q.version = "1";
    q.description = "red team: transposes on a private stream, not the one given";
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
