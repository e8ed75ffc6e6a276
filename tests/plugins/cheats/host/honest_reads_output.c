/* A control: an honest version 3 host transpose that reads its output before it writes it (out +=
 * in, on the elements' bits), as a `beta * C` kernel or an atomic sum does. It declares
 * KB_FLAG_ZEROED_OUTPUTS, so the runner zeroes the output before each launch it times or checks;
 * without the flag the family's poison would reach every element. It must be `ok`. */
#include <kbench/plugin.h>

#include <stdint.h>

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t rows = c->shape[0], cols = c->shape[1];
  const uint32_t* in = (const uint32_t*)b->inputs[0].data;
  uint32_t* out = (uint32_t*)b->outputs[0].data;
  (void)state, (void)stream, (void)config, (void)msg;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t col = 0; col < cols; ++col) out[col * rows + r] += in[r * cols + col];
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/redteam_reads_output";
  p.family = "transpose";
  p.version = "1";
  p.description = "red-team control: a host transpose that adds into its output, zeroed by the runner";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_ZEROED_OUTPUTS;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
