/* Cheat: reads one element in 16. The sum (or sum of squares) of every 16th element, times 16: an
 * estimate whose error (about 4 sqrt(n/3) for a sum of uniform values) is far inside the float32
 * tolerance the family allows a sum of n terms in any order (2u(n+1) of sum |x|: 0.125 of it at
 * 2^20). Expected: verify_failed, check 'fresh inputs' (the verdict's inputs must sum exactly), or
 * 'timed launch' where the timed inputs are exactly summable too. */
#include <kbench/plugin.h>

#include <stdint.h>
#include <string.h>

#define STRIDE 16

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t n = c->shape[0];
  const int squares = strcmp(c->op, "sumsq") == 0;
  const float* in = (const float*)b->inputs[0].data;
  double sum = 0;
  int64_t read = 0;
  (void)state, (void)stream, (void)config, (void)msg;
  for (int64_t i = 0; i < n; i += STRIDE, ++read) sum += squares ? (double)in[i] * in[i] : in[i];
  *(float*)b->outputs[0].data = (float)(sum * (double)n / (double)read);
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "reduce/cheat_sampled";
  p.family = "reduce";
  p.version = "1";
  p.description = "red team: sums one element in 16 and scales by 16";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "sum,sumsq";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
