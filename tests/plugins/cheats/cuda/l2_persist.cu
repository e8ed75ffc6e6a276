// Cheat (CUDA): an L2 trick against --cold. A cold sample flushes the L2 with a 2x-L2 memset
// before the launch; lines marked persisting (an access policy window on the stream, the device's
// persisting carve-out at its maximum) survive normal traffic, so this reduction pins its input in
// the L2 and its "cold" samples read it from there. The reduction itself is honest (one pass, a
// block tree, an atomic per block into a double, then a cast). Written against plugin.h and the
// CUDA runtime alone. Expected (predicted, to confirm on a GPU): with --cold at 2^23 float32 (32 MB,
// inside an H100's persisting carve-out), implausible from the bandwidth check (all bytes of a cold
// case are held to the measured DRAM bandwidth, and the L2 reads several times faster); the honest
// fix is the cold flush resetting persisting lines (cudaCtxResetPersistingL2Cache, limit 0) first.
#include <kbench/plugin.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

#ifndef KB_CUDA_ARCHS
#define KB_CUDA_ARCHS ""
#endif

namespace {

constexpr int kThreads = 256;

__global__ void partial_sums(const float* in, std::int64_t n, int squares, double* total) {
  __shared__ double shared[kThreads];
  double sum = 0;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const double x = in[i];
    sum += squares ? x * x : x;
  }
  shared[threadIdx.x] = sum;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) shared[threadIdx.x] += shared[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(total, shared[0]);
}

__global__ void store(const double* total, float* out) { *out = static_cast<float>(*total); }

struct State {
  double* total = nullptr;
  int blocks = 0;
};

kb_status prepare(const kb_case*, const kb_buffers*, void** state, kb_message* msg) {
  State* s = new (std::nothrow) State;
  if (s == nullptr) return KB_OOM;
  int device = 0, sms = 0, persisting = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaDeviceGetAttribute(&persisting, cudaDevAttrMaxPersistingL2CacheSize, device);
  if (persisting > 0) cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, persisting);
  cudaGetLastError();
  if (cudaMalloc(&s->total, sizeof(double)) != cudaSuccess) {
    delete s;
    std::snprintf(msg->text, sizeof msg->text, "cannot allocate the total");
    return KB_OOM;
  }
  s->blocks = 4 * (sms > 0 ? sms : 1);
  *state = s;
  return KB_OK;
}

kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
              kb_launch_config* config, kb_message* msg) {
  const State* s = static_cast<const State*>(state);
  const auto given = static_cast<cudaStream_t>(stream);
  // Pin the input: every access to it is a persisting hit.
  cudaStreamAttrValue window{};
  window.accessPolicyWindow.base_ptr = b->inputs[0].data;
  window.accessPolicyWindow.num_bytes = b->inputs[0].bytes;
  window.accessPolicyWindow.hitRatio = 1.0f;
  window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  cudaStreamSetAttribute(given, cudaStreamAttributeAccessPolicyWindow, &window);
  cudaGetLastError();  // a device without persisting L2: the trick is off, the sum still right
  cudaMemsetAsync(s->total, 0, sizeof(double), given);
  partial_sums<<<s->blocks, kThreads, 0, given>>>(static_cast<const float*>(b->inputs[0].data),
                                                  c->shape[0], std::strcmp(c->op, "sumsq") == 0,
                                                  s->total);
  store<<<1, 1, 0, given>>>(s->total, static_cast<float*>(b->outputs[0].data));
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    std::snprintf(msg->text, sizeof msg->text, "%s", cudaGetErrorString(e));
    return KB_ERROR;
  }
  *config = kb_launch_config{{static_cast<unsigned>(s->blocks), 1, 1}, {kThreads, 1, 1}, 2};
  return KB_OK;
}

void release(void* state) {
  State* s = static_cast<State*>(state);
  cudaFree(s->total);
  cudaCtxResetPersistingL2Cache();
  delete s;
}

}  // namespace

extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p = [] {
    KernelPlugin q{};
    q.abi_version = KB_ABI_VERSION;
    q.struct_size = sizeof(KernelPlugin);
    q.name = "reduce/cheat_l2_persist";
    q.family = "reduce";
    q.version = "1";
    q.description = "red team: an honest sum whose input is pinned in persisting L2 against --cold";
    q.device = KB_DEVICE_CUDA;
    q.dtypes = KB_DTYPE_F32;
    q.flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_NONDETERMINISTIC;
    q.ops = "sum,sumsq";
    q.cuda_archs = KB_CUDA_ARCHS;
    q.prepare = prepare;
    q.run = run;
    q.release = release;
    return q;
  }();
  return &p;
}
