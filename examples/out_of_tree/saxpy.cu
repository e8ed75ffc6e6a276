// y = a * x + y on n floats, written against nothing but kbench/plugin.h: what a plugin author
// needs at the very least. (The in-tree plugins use the C++ helpers in kbench/plugin.hpp.)
#include <kbench/plugin.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

constexpr float kA = 2.5f;

struct State {
  long long n = 0;
  float *x = nullptr, *y = nullptr, *y0 = nullptr;  // y0: the initial y, restored each launch
  std::vector<float> host_x, host_y;
};

__global__ void saxpy(long long n, float a, const float* x, const float* y0, float* y) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y0[i];
}

kb_status fail(kb_message* msg, const char* what, cudaError_t e) {
  std::snprintf(msg->text, sizeof msg->text, "%s: %s", what, cudaGetErrorString(e));
  return e == cudaErrorMemoryAllocation ? KB_OOM : KB_ERROR;
}

void teardown(void* state) {
  auto* s = static_cast<State*>(state);
  cudaFree(s->x), cudaFree(s->y), cudaFree(s->y0);
  delete s;
}

kb_status setup(const kb_case* c, void** state, kb_work* work, kb_message* msg) {
  auto* s = new State;
  s->n = c->shape[0];
  s->host_x.resize(s->n), s->host_y.resize(s->n);
  for (long long i = 0; i < s->n; ++i) {
    s->host_x[i] = static_cast<float>((i * 37 + c->seed) % 1000) / 1000.0f + 0.5f;
    s->host_y[i] = static_cast<float>((i * 11 + c->seed) % 1000) / 1000.0f - 0.5f;
  }
  const size_t bytes = s->n * sizeof(float);
  cudaError_t e;
  if ((e = cudaMalloc(&s->x, bytes)) || (e = cudaMalloc(&s->y, bytes)) ||
      (e = cudaMalloc(&s->y0, bytes)) ||
      (e = cudaMemcpy(s->x, s->host_x.data(), bytes, cudaMemcpyHostToDevice)) ||
      (e = cudaMemcpy(s->y0, s->host_y.data(), bytes, cudaMemcpyHostToDevice))) {
    teardown(s);
    return fail(msg, "setup", e);
  }
  work->bytes = 3.0 * bytes;
  work->flops = 2.0 * s->n;
  *state = s;
  return KB_OK;
}

kb_status poison(void* state, void* stream, kb_message* msg) {
  auto* s = static_cast<State*>(state);
  const cudaError_t e = cudaMemsetAsync(s->y, 0xFF, s->n * sizeof(float), (cudaStream_t)stream);
  return e ? fail(msg, "poison", e) : KB_OK;
}

kb_status launch(void* state, void* stream, kb_launch_config* config, kb_message* msg) {
  auto* s = static_cast<State*>(state);
  const unsigned block = 256, grid = static_cast<unsigned>((s->n + block - 1) / block);
  saxpy<<<grid, block, 0, (cudaStream_t)stream>>>(s->n, kA, s->x, s->y0, s->y);
  config->grid[0] = grid, config->grid[1] = config->grid[2] = 1;
  config->block[0] = block, config->block[1] = config->block[2] = 1;
  config->kernels = 1;
  const cudaError_t e = cudaGetLastError();
  return e ? fail(msg, "launch", e) : KB_OK;
}

kb_status verify(void* state, kb_verification* result, kb_message* msg) {
  auto* s = static_cast<State*>(state);
  std::vector<float> y(s->n);
  const cudaError_t e = cudaMemcpy(y.data(), s->y, s->n * sizeof(float), cudaMemcpyDeviceToHost);
  if (e) return fail(msg, "verify", e);
  result->tolerance = 1e-6;
  result->checked = s->n;
  for (long long i = 0; i < s->n; ++i) {
    const double expected = static_cast<double>(kA) * s->host_x[i] + s->host_y[i];
    double err = std::fabs(y[i] - expected) / std::fmax(std::fabs(expected), 1e-3);
    if (std::isnan(err)) err = INFINITY;
    if (err > result->max_rel_error) result->max_rel_error = err;
  }
  result->passed = result->max_rel_error <= result->tolerance;
  return result->passed ? KB_OK : KB_VERIFY_FAILED;
}

}  // namespace

extern "C" KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static const KernelPlugin plugin = {
      KB_ABI_VERSION, sizeof(KernelPlugin), "example/saxpy", "example", "1",
      "y = a*x + y, one thread per element (out-of-tree example)", KB_DEVICE_CUDA, KB_DTYPE_F32,
      KB_FLAG_OWN_LAUNCH_SHAPE, "", "sm_90,compute_90", nullptr, setup, poison, launch, verify,
      teardown};
  return &plugin;
}
