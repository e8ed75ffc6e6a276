/* The control for matmul: an honest version 3 host strategy (plugin.h alone, plain C). C (M x N) =
 * A (M x K) * B (K x N), row-major float32, each entry accumulated in float in the order k = 0..K-1.
 * Must be `ok`. */
#include <kbench/plugin.h>

#include <stdint.h>

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t M = c->shape[0], N = c->shape[1], K = c->shape[2];
  const float* A = (const float*)b->inputs[0].data;
  const float* B = (const float*)b->inputs[1].data;
  float* C = (float*)b->outputs[0].data;
  (void)state, (void)stream, (void)config, (void)msg;
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      float sum = 0;
      for (int64_t k = 0; k < K; ++k) sum += A[i * K + k] * B[k * N + j];
      C[i * N + j] = sum;
    }
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "matmul/redteam_honest";
  p.family = "matmul";
  p.version = "1";
  p.description = "red-team control: an honest host matmul in float32";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_SIMT;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
