/* Cheat: claims to be the family's ceiling. KB_FLAG_CEILING tells the transpose family to check a
 * byte-for-byte copy instead of a transpose (it exists for transpose/copy, the family's reference).
 * Any strategy may set it: this one is named like any other transpose strategy, copies `in` to
 * `out` and runs at the copy's speed, ranked beside the real transposes. Expected: a non-ok status
 * once only the family's named reference may be its ceiling (check 'timed launch', the copy is not
 * a transpose). */
#include <kbench/plugin.h>

#include <stdint.h>
#include <string.h>

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  (void)state, (void)c, (void)stream, (void)config, (void)msg;
  memcpy(b->outputs[0].data, b->inputs[0].data, (size_t)b->outputs[0].bytes);
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_ceiling_claim";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: a copy that declares KB_FLAG_CEILING in the transpose family";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_CEILING;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
