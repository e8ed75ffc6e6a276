// Cheat (CUDA): skips a launch while its previous one is still pending on the stream. It records an
// event after each kernel it enqueues; when that event has not completed yet (a held sample's
// launches are all pending until the hold ends), it enqueues nothing, and the output keeps the
// first launch's sum. Written against plugin.h and the CUDA runtime alone. Expected: implausible,
// launch accounting.
#include <kbench/plugin.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#ifndef KB_CUDA_ARCHS
#define KB_CUDA_ARCHS ""
#endif

namespace {

__global__ void sum(const float* in, std::int64_t n, float* out) {
  __shared__ float partial[256];
  float local = 0;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    local += in[i];
  }
  partial[threadIdx.x] = local;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

struct State {
  cudaEvent_t last = nullptr;
};

kb_status prepare(const kb_case*, const kb_buffers*, void** state, kb_message* msg) {
  auto* s = new State;
  if (cudaEventCreateWithFlags(&s->last, cudaEventDisableTiming) != cudaSuccess) {
    delete s;
    std::snprintf(msg->text, sizeof msg->text, "cudaEventCreate failed");
    return KB_ERROR;
  }
  *state = s;
  return KB_OK;
}

kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
              kb_launch_config* config, kb_message* msg) {
  auto* s = static_cast<State*>(state);
  const auto given = static_cast<cudaStream_t>(stream);
  *config = kb_launch_config{{264, 1, 1}, {256, 1, 1}, 2};
  const bool pending = cudaEventQuery(s->last) == cudaErrorNotReady;
  cudaGetLastError();
  if (pending) return KB_OK;
  cudaMemsetAsync(b->outputs[0].data, 0, sizeof(float), given);
  sum<<<264, 256, 0, given>>>(static_cast<const float*>(b->inputs[0].data), c->shape[0],
                              static_cast<float*>(b->outputs[0].data));
  cudaEventRecord(s->last, given);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    std::snprintf(msg->text, sizeof msg->text, "%s", cudaGetErrorString(e));
    return KB_ERROR;
  }
  return KB_OK;
}

void release(void* state) {
  auto* s = static_cast<State*>(state);
  cudaEventDestroy(s->last);
  delete s;
}

}  // namespace

extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p = [] {
    KernelPlugin q{};
    q.abi_version = KB_ABI_VERSION;
    q.struct_size = sizeof(KernelPlugin);
    q.name = "reduce/cheat_pending_skip";
    q.family = "reduce";
    q.version = "1";
    q.description = "red team: skips a launch while its previous one is pending";
    q.device = KB_DEVICE_CUDA;
    q.dtypes = KB_DTYPE_F32;
    q.flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_NONDETERMINISTIC;
    q.ops = "sum";
    q.cuda_archs = KB_CUDA_ARCHS;
    q.prepare = prepare;
    q.run = run;
    q.release = release;
    return q;
  }();
  return &p;
}
