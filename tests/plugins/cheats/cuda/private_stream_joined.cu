// Cheat (CUDA): works ahead of the timer. run launches the transpose on a private stream and makes
// the given stream wait for it (an event), so everything the runner orders after the launch sees
// the output written: every check passes. But while kbench holds the given stream to enqueue a
// timed sample, the private stream is not held: the kernels run while the host is still enqueueing,
// before the timer's start event can fire, and a held sample times only what is left of them. Under
// stream capture (kbench's stream check) it launches on the given stream like an honest strategy
// (cudaStreamIsCapturing). Written against plugin.h and the CUDA runtime alone. Expected (predicted,
// to confirm on a GPU): implausible where the sample time left is below a roof (small kernels: the
// bandwidth check), else `ok` with the back-to-back self-check's note (the back-to-back time is the
// kernel's, the held median less): an escape where the kernel outlasts its enqueueing.
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
  cudaEvent_t done = nullptr;
};

kb_status prepare(const kb_case*, const kb_buffers*, void** state, kb_message* msg) {
  State* s = new (std::nothrow) State;
  if (s == nullptr) return KB_OOM;
  if (cudaStreamCreateWithFlags(&s->own, cudaStreamNonBlocking) != cudaSuccess ||
      cudaEventCreateWithFlags(&s->done, cudaEventDisableTiming) != cudaSuccess) {
    if (s->own != nullptr) cudaStreamDestroy(s->own);
    delete s;
    std::snprintf(msg->text, sizeof msg->text, "cannot create a stream and an event");
    return KB_ERROR;
  }
  *state = s;
  return KB_OK;
}

kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
              kb_launch_config* config, kb_message* msg) {
  const State* s = static_cast<const State*>(state);
  const auto given = static_cast<cudaStream_t>(stream);
  cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(given, &capturing);
  const bool honest = capturing != cudaStreamCaptureStatusNone;
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((c->shape[1] + 31) / 32),
                  static_cast<unsigned>((c->shape[0] + 7) / 8));
  transpose<<<grid, block, 0, honest ? given : s->own>>>(
      static_cast<const std::uint32_t*>(b->inputs[0].data),
      static_cast<std::uint32_t*>(b->outputs[0].data), c->shape[0], c->shape[1]);
  if (!honest) {
    cudaEventRecord(s->done, s->own);
    cudaStreamWaitEvent(given, s->done, 0);
  }
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
  cudaEventDestroy(s->done);
  cudaStreamDestroy(s->own);
  delete s;
}

}  // namespace

extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p = [] {
    KernelPlugin q{};
    q.abi_version = KB_ABI_VERSION;
    q.struct_size = sizeof(KernelPlugin);
    q.name = "transpose/cheat_private_stream_joined";
    q.family = "transpose";
    q.version = "1";
    q.description = "red team: private stream joined by an event, honest under capture";
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
