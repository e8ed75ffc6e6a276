/* Cheat: does half the work in its first launch only. A host launch of 100 ms or more is its own
 * warm-up and its first sample, so that launch is timed; this one stalls 120 ms (as a long launch
 * would), transposes half the rows and leaves the rest of `out` as it found it; every later launch
 * does the whole transpose. Expected: verify_failed, check 'timed launch' (the long warm-up is
 * checked as the sample it becomes). */
#define _POSIX_C_SOURCE 199309L
#include <kbench/plugin.h>

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static kb_status prepare(const kb_case* c, const kb_buffers* b, void** state, kb_message* msg) {
  (void)c, (void)b, (void)msg;
  *state = calloc(1, sizeof(int));
  return *state != NULL ? KB_OK : KB_OOM;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  int* launches = (int*)state;
  const int64_t rows = c->shape[0], cols = c->shape[1];
  const uint32_t* in = (const uint32_t*)b->inputs[0].data;
  uint32_t* out = (uint32_t*)b->outputs[0].data;
  const int64_t done_rows = *launches == 0 ? rows / 2 : rows;
  (void)stream, (void)config, (void)msg;
  if (*launches == 0) {
    const struct timespec stall = {0, 120 * 1000 * 1000};
    nanosleep(&stall, NULL);
  }
  for (int64_t r = 0; r < done_rows; ++r) {
    for (int64_t col = 0; col < cols; ++col) out[col * rows + r] = in[r * cols + col];
  }
  ++*launches;
  return KB_OK;
}

static void release(void* state) { free(state); }

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_half_first_launch";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: a long first launch that transposes half the rows";
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
