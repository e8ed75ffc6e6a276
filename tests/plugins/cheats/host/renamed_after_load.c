/* Cheat: rewrites its own descriptor once loaded. Its first launch renames it transpose/copy (the
 * family's reference, whose KB_FLAG_CEILING is honoured) and swaps its run hook for a plain copy,
 * in the struct kbench_plugin() returned: a runner reading that struct for each case would check
 * every later case as a copy (its first case fails: checked as a transpose). Expected:
 * verify_failed, check 'timed launch', on every case (kbench reads its own copy of the
 * descriptor, taken at load: the name and hook it validated). */
#include <kbench/plugin.h>

#include <stdint.h>
#include <string.h>

static KernelPlugin p;

static kb_status copy(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                      kb_launch_config* config, kb_message* msg) {
  (void)state, (void)c, (void)stream, (void)config, (void)msg;
  memcpy(b->outputs[0].data, b->inputs[0].data, (size_t)b->outputs[0].bytes);
  return KB_OK;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  p.name = "transpose/copy";
  p.run = copy;
  return copy(state, c, b, stream, config, msg);
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_renamed_after_load";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: renames itself transpose/copy after its first launch";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_CEILING;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
