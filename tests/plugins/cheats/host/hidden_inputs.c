/* Cheat: uses its inputs as scratch (as inputs_as_scratch.c), and first hides them from the
 * runner. The kb_buffers it is handed is const only by type: its prepare sets input_count to 0,
 * so that a runner which handed over its own struct would digest no input ('inputs unchanged'
 * compares nothing) and would take the case for one without inputs (no near redraw: neither
 * 'unpoisoned launch' nor 'changed inputs'). Expected: verify_failed, check 'inputs unchanged'
 * (the strategy is handed a copy, and the runner's own stays as the family made it). */
#include <kbench/plugin.h>

#include <stdint.h>
#include <string.h>

#define MARKER 0x7FC0DEADu

static kb_status prepare(const kb_case* c, const kb_buffers* b, void** state, kb_message* msg) {
  (void)c, (void)msg;
  *state = NULL;
  ((kb_buffers*)b)->input_count = 0;
  return KB_OK;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t n = c->shape[0];
  float* in = (float*)b->inputs[0].data;
  uint32_t bits = 0;
  double sum = 0;
  (void)state, (void)stream, (void)config, (void)msg;
  ((kb_buffers*)b)->input_count = 0;
  if (n > 1) memcpy(&bits, &in[1], sizeof bits);
  if (bits == MARKER) {
    *(float*)b->outputs[0].data = in[0];
    return KB_OK;
  }
  for (int64_t i = 0; i < n; ++i) sum += in[i];
  *(float*)b->outputs[0].data = (float)sum;
  if (n > 1) {
    const uint32_t marker = MARKER;
    in[0] = (float)sum;
    memset(in + 1, 0, (size_t)(n - 1) * sizeof(float));
    memcpy(&in[1], &marker, sizeof marker);
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "reduce/cheat_hidden_inputs";
  p.family = "reduce";
  p.version = "1";
  p.description = "red team: hides its inputs from the runner, then uses them as scratch";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "sum";
  p.cuda_archs = "";
  p.prepare = prepare;
  p.run = run;
  return &p;
}
