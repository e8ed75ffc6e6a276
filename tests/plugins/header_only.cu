// A CUDA plugin written against kbench/plugin.h alone, the way an author from outside writes one:
// y = 3x + 1 on n floats. Its kernel is never touched before the first launch, so under CUDA's
// default lazy loading that launch loads the module. One fault each (KBT_FAULT):
//   none         correct
//   own_stream   poisons and launches on a stream it created, not on the one it is given
//   passed_zero  verify returns KB_OK with passed = 0
//   synchronizes waits for its stream inside launch without saying so (KB_FLAG_SYNCHRONIZES)
#include <kbench/plugin.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

#define KBT_IS(fault) (std::strcmp(KBT_FAULT, fault) == 0)

struct State {
  long long n = 0;
  float *x = nullptr, *y = nullptr;
  cudaStream_t own = nullptr;
  std::vector<float> host_x;
};

__global__ void three_x_plus_one(long long n, const float* x, float* y) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = 3.0f * x[i] + 1.0f;
}

kb_status fail(kb_message* msg, const char* what, cudaError_t e) {
  std::snprintf(msg->text, sizeof msg->text, "%s: %s", what, cudaGetErrorString(e));
  return e == cudaErrorMemoryAllocation ? KB_OOM : KB_ERROR;
}

void teardown(void* state) {
  auto* s = static_cast<State*>(state);
  cudaFree(s->x), cudaFree(s->y);
  if (s->own) cudaStreamDestroy(s->own);
  delete s;
}

kb_status setup(const kb_case* c, void** state, kb_work* work, kb_message* msg) {
  auto* s = new State;
  s->n = c->shape[0];
  s->host_x.resize(s->n);
  for (long long i = 0; i < s->n; ++i) {
    s->host_x[i] = static_cast<float>((i * 37 + c->seed) % 1000) / 100.0f - 5.0f;
  }
  const size_t bytes = s->n * sizeof(float);
  cudaError_t e;
  if ((e = cudaMalloc(&s->x, bytes)) || (e = cudaMalloc(&s->y, bytes)) ||
      (e = cudaMemcpy(s->x, s->host_x.data(), bytes, cudaMemcpyHostToDevice)) ||
      (KBT_IS("own_stream") && (e = cudaStreamCreateWithFlags(&s->own, cudaStreamNonBlocking)))) {
    teardown(s);
    return fail(msg, "setup", e);
  }
  work->bytes = 2.0 * bytes;
  work->flops = 2.0 * s->n;
  *state = s;
  return KB_OK;
}

kb_status poison(void* state, void* stream, kb_message* msg) {
  auto* s = static_cast<State*>(state);
  cudaStream_t where = s->own ? s->own : (cudaStream_t)stream;
  const cudaError_t e = cudaMemsetAsync(s->y, 0xFF, s->n * sizeof(float), where);
  return e ? fail(msg, "poison", e) : KB_OK;
}

kb_status launch(void* state, void* stream, kb_launch_config* config, kb_message* msg) {
  auto* s = static_cast<State*>(state);
  const unsigned block = 256, grid = static_cast<unsigned>((s->n + block - 1) / block);
  cudaStream_t where = s->own ? s->own : (cudaStream_t)stream;
  three_x_plus_one<<<grid, block, 0, where>>>(s->n, s->x, s->y);
  config->grid[0] = grid, config->grid[1] = config->grid[2] = 1;
  config->block[0] = block, config->block[1] = config->block[2] = 1;
  config->kernels = 1;
  cudaError_t e = cudaGetLastError();
  if (!e && KBT_IS("synchronizes")) e = cudaStreamSynchronize(where);
  return e ? fail(msg, "launch", e) : KB_OK;
}

kb_status verify(void* state, kb_verification* result, kb_message* msg) {
  auto* s = static_cast<State*>(state);
  // The own stream's last launch may still run: the runner synchronised only its own stream.
  cudaError_t e = cudaDeviceSynchronize();
  std::vector<float> y(s->n);
  if (!e) e = cudaMemcpy(y.data(), s->y, s->n * sizeof(float), cudaMemcpyDeviceToHost);
  if (e) return fail(msg, "verify", e);
  result->tolerance = 1e-6;
  result->checked = s->n;
  for (long long i = 0; i < s->n; ++i) {
    const double expected = 3.0 * s->host_x[i] + 1.0;
    double err = std::fabs(y[i] - expected) / std::fmax(std::fabs(expected), 1e-3);
    if (std::isnan(err)) err = INFINITY;
    if (err > result->max_rel_error) result->max_rel_error = err;
  }
  result->passed = KBT_IS("passed_zero") ? 0 : result->max_rel_error <= result->tolerance;
  return result->passed || KBT_IS("passed_zero") ? KB_OK : KB_VERIFY_FAILED;
}

}  // namespace

extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static const KernelPlugin plugin = {
      KB_ABI_VERSION, sizeof(KernelPlugin), KBT_NAME, "header_only", "1",
      "written against plugin.h alone: " KBT_FAULT, KB_DEVICE_CUDA, KB_DTYPE_F32,
      KB_FLAG_OWN_LAUNCH_SHAPE, "", KB_CUDA_ARCHS, nullptr, setup, poison, launch, verify,
      teardown};
  return &plugin;
}
