/* Cheat: lower precision inside. A float32 matmul whose inputs are rounded to bfloat16 before they
 * are multiplied (products accumulated in float32), the way a BF16 tensor-core kernel computes, while
 * it declares no tensor math (no KB_FLAG_MATH_*): it would be held to float32's tolerance and ranked
 * beside float32 kernels, at BF16 tensor-core speed. Expected: verify_failed, check 'timed launch'
 * (the family holds an undeclared float32 product to float32's tolerance). */
#include <kbench/plugin.h>

#include <stdint.h>
#include <string.h>

/* float32 -> bfloat16 -> float32, round to nearest even (no NaNs in the family's inputs). */
static float through_bf16(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  u += 0x7FFFu + ((u >> 16) & 1u);
  u &= 0xFFFF0000u;
  memcpy(&x, &u, sizeof x);
  return x;
}

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
      for (int64_t k = 0; k < K; ++k) sum += through_bf16(A[i * K + k]) * through_bf16(B[k * N + j]);
      C[i * N + j] = sum;
    }
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "matmul/cheat_bf16_inside";
  p.family = "matmul";
  p.version = "1";
  p.description = "red team: float32 matmul through bfloat16 inputs, no math declared";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
