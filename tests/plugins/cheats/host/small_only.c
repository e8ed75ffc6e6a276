/* Cheat: special-cases the shapes it expects to be checked on. Honest up to the size of
 * `kbench validate`'s transpose case (33x31: the family's check_sizes); beyond, it copies `in` to
 * `out` untransposed (a coalesced copy, the ceiling's speed), which no sweep row would notice if only
 * validate's sizes were ever checked. Expected: ok at 33x31, verify_failed with check 'timed launch'
 * at any size beyond. */
#include <kbench/plugin.h>

#include <stdint.h>
#include <string.h>

#define LARGEST_CHECKED (33 * 31)

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t rows = c->shape[0], cols = c->shape[1];
  const uint32_t* in = (const uint32_t*)b->inputs[0].data;
  uint32_t* out = (uint32_t*)b->outputs[0].data;
  (void)state, (void)stream, (void)config, (void)msg;
  if (rows * cols > LARGEST_CHECKED) {
    memcpy(out, in, (size_t)b->outputs[0].bytes);
    return KB_OK;
  }
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t col = 0; col < cols; ++col) out[col * rows + r] = in[r * cols + col];
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_small_only";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: transposes validate's small shapes, copies beyond";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
