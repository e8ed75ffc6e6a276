/* Cheat: tells the verdict's inputs from the timed ones. The reduce family draws its timed float
 * inputs uniform in [-1, 1) and its check inputs (KB_DRAW_CHECK) from {-1, 0, +1}, so that their sum
 * is exact in any order (plugin.h says so; reduce.hpp documents it). This strategy looks at the first
 * 64 elements: all of them -1, 0 or +1, and it sums every element honestly; otherwise it reads one
 * element in 16 and scales the sum by 16, an estimate well inside the float32 tolerance for a sum of
 * n terms in any order (2u(n+1) of sum |x|: 0.125 of it at 2^20). Expected: a non-ok status; today
 * the timed checks accept the estimate and the verdict's inputs get an honest sum. */
#include <kbench/plugin.h>

#include <stdint.h>
#include <string.h>

#define LOOK 64
#define STRIDE 16

static int looks_like_check_draw(const float* in, int64_t n) {
  for (int64_t i = 0; i < n && i < LOOK; ++i) {
    if (in[i] != 0.0f && in[i] != 1.0f && in[i] != -1.0f) return 0;
  }
  return 1;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t n = c->shape[0];
  const int squares = strcmp(c->op, "sumsq") == 0;
  const float* in = (const float*)b->inputs[0].data;
  (void)state, (void)stream, (void)config, (void)msg;
  double sum = 0;
  if (looks_like_check_draw(in, n)) {
    for (int64_t i = 0; i < n; ++i) sum += squares ? (double)in[i] * in[i] : in[i];
  } else {
    int64_t read = 0;
    for (int64_t i = 0; i < n; i += STRIDE, ++read) sum += squares ? (double)in[i] * in[i] : in[i];
    sum *= (double)n / (double)read;
  }
  *(float*)b->outputs[0].data = (float)sum;
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "reduce/cheat_detect_check_draw";
  p.family = "reduce";
  p.version = "1";
  p.description = "red team: sums 1 element in 16 unless the inputs look like the check draw";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "sum,sumsq";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
