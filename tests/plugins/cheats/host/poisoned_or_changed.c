/* Cheat: does the work only when the runner could notice that it did not. A launch transposes when
 * out[0] holds the poison's bits (a check follows) or when in[0] is not what it was at the last
 * launch that worked (new inputs: the old output would be wrong); every other launch returns at
 * once. A check that launches on fresh inputs without poisoning first sees in[0] change. Expected:
 * a non-ok status from a check whose new inputs differ where the strategy does not look. */
#include <kbench/plugin.h>

#include <stdint.h>
#include <stdlib.h>

typedef struct State {
  int have;
  uint32_t first_input;
} State;

static kb_status prepare(const kb_case* c, const kb_buffers* b, void** state, kb_message* msg) {
  (void)c, (void)b, (void)msg;
  *state = calloc(1, sizeof(State));
  return *state != NULL ? KB_OK : KB_OOM;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  State* s = (State*)state;
  const int64_t rows = c->shape[0], cols = c->shape[1];
  const uint32_t* in = (const uint32_t*)b->inputs[0].data;
  uint32_t* out = (uint32_t*)b->outputs[0].data;
  (void)stream, (void)config, (void)msg;
  if (s->have && out[0] != 0xFFFFFFFFu && in[0] == s->first_input) return KB_OK;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t col = 0; col < cols; ++col) out[col * rows + r] = in[r * cols + col];
  }
  s->have = 1;
  s->first_input = in[0];
  return KB_OK;
}

static void release(void* state) { free(state); }

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_poisoned_or_changed";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: transposes only after a poison or when in[0] changed";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "";
  p.cuda_archs = "";
  p.prepare = prepare;
  p.run = run;
  p.release = release;
  return &p;
}
