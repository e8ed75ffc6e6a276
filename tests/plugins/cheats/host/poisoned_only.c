/* Cheat: does the work only when the output looks poisoned. The family poisons with 0xFF bytes, so
 * a launch whose out[0] is all ones is one the runner is about to check: that one transposes, every
 * other one returns at once, leaving the answer of the last checked launch in place (right, as long
 * as the inputs have not changed). Expected: a non-ok status from the poisoned-output check (a
 * launch right after poisoning takes far longer than one on written outputs). */
#include <kbench/plugin.h>

#include <stdint.h>

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t rows = c->shape[0], cols = c->shape[1];
  const uint32_t* in = (const uint32_t*)b->inputs[0].data;
  uint32_t* out = (uint32_t*)b->outputs[0].data;
  (void)state, (void)stream, (void)config, (void)msg;
  if (out[0] != 0xFFFFFFFFu) return KB_OK;  /* "already written": nothing to do */
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t col = 0; col < cols; ++col) out[col * rows + r] = in[r * cols + col];
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_poisoned_only";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: transposes only when out[0] holds the poison's bits";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
