/* Cheat: does half the work. Transposes only the first half of the rows of `in`; the other half of
 * `out` keeps whatever was there. Against a self-refereed v2 plugin's own verify this was `ok` and
 * faster than the copy. Expected: verify_failed, check 'timed launch' (the first
 * checked sample poisons the output, and half of it stays poisoned). */
#include <kbench/plugin.h>

#include <stdint.h>

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t rows = c->shape[0], cols = c->shape[1];
  const uint32_t* in = (const uint32_t*)b->inputs[0].data;
  uint32_t* out = (uint32_t*)b->outputs[0].data;
  (void)state, (void)stream, (void)config, (void)msg;
  for (int64_t r = 0; r < rows / 2; ++r) {
    for (int64_t col = 0; col < cols; ++col) out[col * rows + r] = in[r * cols + col];
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_half_rows";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: transposes half the rows";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
