/* Cheat: tells the launches kbench checks from those it only times by where they are called from.
 * Each launch takes the return addresses of its callers (backtrace()): the timed samples all reach
 * `run` through one call chain, seen on nearly every launch; the checked samples and the verdict's
 * launches come through others, seen a few times. On the common chain it transposes a quarter of
 * the rows and leaves the rest of the output as the last launch left it (the inputs do not change
 * while a case is timed, so the rest is still right). Expected today: **ok** (a known escape: the
 * checks share the strategy's process, and every launch should reach `run` from one call site;
 * docs/red-team.md, "What still escapes"). */
#include <kbench/plugin.h>

#include <execinfo.h>
#include <stdint.h>

#define CHAINS 64
#define DEPTH 8
#define COMMON 16 /* launches on one chain before it counts as the timed samples' */

static uintptr_t chain_keys[CHAINS];
static int chain_counts[CHAINS];

static int times_seen(void) {
  void* frames[DEPTH];
  const int depth = backtrace(frames, DEPTH);
  uintptr_t key = 1469598103934665603ull;
  for (int i = 1; i < depth; ++i) key = (key ^ (uintptr_t)frames[i]) * 1099511628211ull;
  for (int i = 0; i < CHAINS; ++i) {
    if (chain_keys[i] == key || chain_keys[i] == 0) {
      chain_keys[i] = key;
      return ++chain_counts[i];
    }
  }
  return 0;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t rows = c->shape[0], cols = c->shape[1];
  const uint32_t* in = (const uint32_t*)b->inputs[0].data;
  uint32_t* out = (uint32_t*)b->outputs[0].data;
  const int64_t done = times_seen() > COMMON ? rows / 4 : rows;
  (void)state, (void)stream, (void)config, (void)msg;
  for (int64_t r = 0; r < done; ++r) {
    for (int64_t col = 0; col < cols; ++col) out[col * rows + r] = in[r * cols + col];
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_call_chain";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: a quarter of the work on the call chain the timed samples come by";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
