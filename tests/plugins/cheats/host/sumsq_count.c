/* Cheat: predicts the verdict's answer. The reduce family's check inputs for floats are -1, 0 or
 * +1 with at most about 2^22 non-zeros (reduce.hpp): up to n = 2^22 every element is +1 or -1, so the
 * sum of squares is n, whatever the seed. This strategy looks at the first 8 elements: all of them
 * -1, 0 or +1 (the check draw), and it writes n for a sum of squares without reading the rest, and
 * sums honestly for a sum; otherwise (the timed draw, uniform floats) it sums one element in 16 and
 * scales by 16, inside the float32 tolerance. Expected: a non-ok status; today nothing catches it at
 * n <= 2^22. */
#include <kbench/plugin.h>

#include <stdint.h>
#include <string.h>

#define STRIDE 16
#define LOOK 8

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
  double sum = 0;
  int64_t read = 0;
  (void)state, (void)stream, (void)config, (void)msg;
  if (looks_like_check_draw(in, n)) {
    if (squares) {
      *(float*)b->outputs[0].data = (float)n;
      return KB_OK;
    }
    for (int64_t i = 0; i < n; ++i) sum += in[i];
    *(float*)b->outputs[0].data = (float)sum;
    return KB_OK;
  }
  for (int64_t i = 0; i < n; i += STRIDE, ++read) sum += squares ? (double)in[i] * in[i] : in[i];
  *(float*)b->outputs[0].data = (float)(sum * (double)n / (double)read);
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "reduce/cheat_sumsq_count";
  p.family = "reduce";
  p.version = "1";
  p.description = "red team: writes n for the check draw's sum of squares, estimates the rest";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "sum,sumsq";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
