/* Cheat: declares the ceiling flag in a family that has no copy ceiling. KB_FLAG_CEILING makes the
 * transpose family check a copy; this matmul strategy sets it too and fills C with A's leading
 * elements (a copy, memory speed, no arithmetic), hoping the family checks a copy. Expected:
 * verify_failed, check 'timed launch' (matmul checks a product whatever the flags). */
#include <kbench/plugin.h>

#include <stdint.h>

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const uint64_t a_count = b->inputs[0].count, c_count = b->outputs[0].count;
  const float* A = (const float*)b->inputs[0].data;
  float* C = (float*)b->outputs[0].data;
  (void)state, (void)c, (void)stream, (void)config, (void)msg;
  for (uint64_t i = 0; i < c_count; ++i) C[i] = A[i % a_count];
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "matmul/cheat_ceiling_copy";
  p.family = "matmul";
  p.version = "1";
  p.description = "red team: copies A into C and declares KB_FLAG_CEILING";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_CEILING;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
