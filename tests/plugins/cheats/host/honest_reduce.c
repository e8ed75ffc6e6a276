/* The control for reduce: an honest version 3 host strategy (plugin.h alone, plain C). One pass in
 * order over in (n elements), accumulated in double for float32 (written as a float) and in int64
 * for int32 (written as an int64), as the family's layout says. Must be `ok`. */
#include <kbench/plugin.h>

#include <stdint.h>
#include <string.h>

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t n = c->shape[0];
  const int squares = strcmp(c->op, "sumsq") == 0;
  (void)state, (void)stream, (void)config, (void)msg;
  if (c->dtype == KB_DTYPE_F32) {
    const float* in = (const float*)b->inputs[0].data;
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += squares ? (double)in[i] * in[i] : in[i];
    *(float*)b->outputs[0].data = (float)sum;
  } else {
    const int32_t* in = (const int32_t*)b->inputs[0].data;
    int64_t sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += squares ? (int64_t)in[i] * in[i] : in[i];
    *(int64_t*)b->outputs[0].data = sum;
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "reduce/redteam_honest";
  p.family = "reduce";
  p.version = "1";
  p.description = "red-team control: an honest host reduction";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "sum,sumsq";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
