/* Cheat, or a careless published kernel: an honest sum that parks its partial sums past its output,
 * as a reduction launched with 64 blocks writing one partial per block after the result. The
 * output is right. Expected: verify_failed, check 'guard bytes': the operands sit between guard
 * zones the referee reads after every check. */
#include <kbench/plugin.h>

#include <stdint.h>
#include <string.h>

enum { kPartials = 64 };

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t n = c->shape[0];
  const float* in = (const float*)b->inputs[0].data;
  float partials[kPartials] = {0};
  (void)state, (void)stream, (void)config, (void)msg;
  for (int64_t i = 0; i < n; ++i) partials[i % kPartials] += in[i];
  double sum = 0;
  for (int p = 0; p < kPartials; ++p) sum += partials[p];
  float* out = (float*)b->outputs[0].data;
  out[0] = (float)sum;
  memcpy(out + 1, partials, sizeof partials - sizeof partials[0]);
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "reduce/cheat_writes_past_output";
  p.family = "reduce";
  p.version = "1";
  p.description = "red team: a right sum, its partials written past the output";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "sum";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
