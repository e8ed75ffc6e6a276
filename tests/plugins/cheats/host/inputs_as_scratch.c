/* Cheat: uses its inputs as scratch. The first launch sums `in` and then folds it in place: in[0]
 * becomes the total (for sumsq, its square root), in[1] a marker (a NaN no draw makes) and every
 * other element 0, so the sum of the inputs other than the marker, and of their squares, stays what
 * it was. A later launch that finds the marker reads in[0] alone. Every timed launch's output is right (to the float tolerance). Expected:
 * verify_failed, check 'inputs unchanged' (the runner's digest of the inputs after timing is not
 * the digest of the draw). */
#include <kbench/plugin.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#define MARKER 0x7FC0DEADu

static int folded(const float* in, int64_t n) {
  uint32_t bits;
  if (n < 2) return 0;
  memcpy(&bits, &in[1], sizeof bits);
  return bits == MARKER;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t n = c->shape[0];
  const int squares = strcmp(c->op, "sumsq") == 0;
  float* in = (float*)b->inputs[0].data; /* "read-only by contract" */
  (void)state, (void)stream, (void)config, (void)msg;
  if (folded(in, n)) {
    *(float*)b->outputs[0].data = squares ? in[0] * in[0] : in[0];
    return KB_OK;
  }
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += squares ? (double)in[i] * in[i] : in[i];
  *(float*)b->outputs[0].data = (float)sum;
  if (n > 1) {
    const uint32_t marker = MARKER;
    in[0] = squares ? (float)sqrt(sum) : (float)sum;
    memset(in + 1, 0, (size_t)(n - 1) * sizeof(float));
    memcpy(&in[1], &marker, sizeof marker);
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "reduce/cheat_inputs_as_scratch";
  p.family = "reduce";
  p.version = "1";
  p.description = "red team: folds its inputs in place so later launches read one element";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "sum,sumsq";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
