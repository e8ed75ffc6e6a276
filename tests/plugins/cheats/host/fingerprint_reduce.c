/* Cheat: caches by an input fingerprint. Sixteen elements of `in`, evenly spaced, and n, hashed: when the hash is the last one's, the cached result is written without reading the rest
 * (O(1) instead of O(n)); otherwise it sums honestly and caches. Every timed launch runs on the same
 * inputs, so each is right; the verdict's fresh inputs change the fingerprint, so it sums them
 * honestly, and the second launch on them hits the cache with the right answer. Expected: a non-ok
 * status; today no functional check can see it on the host (the verdict's inputs differ everywhere,
 * the fingerprint too), and a host row has no bandwidth roof. */
#include <kbench/plugin.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PROBES 16

typedef struct State {
  int have;
  uint64_t fingerprint;
  float sum_f32;
  int64_t sum_i64;
} State;

static uint64_t fingerprint(const uint32_t* words, int64_t n) {
  uint64_t h = 0xCBF29CE484222325ull ^ (uint64_t)n;
  for (int p = 0; p < PROBES; ++p) {
    const int64_t i = n > 1 ? (int64_t)p * (n - 1) / (PROBES - 1) : 0;
    h = (h ^ words[i]) * 0x100000001B3ull;
  }
  return h;
}

static kb_status prepare(const kb_case* c, const kb_buffers* b, void** state, kb_message* msg) {
  (void)c, (void)b, (void)msg;
  *state = calloc(1, sizeof(State));
  return *state != NULL ? KB_OK : KB_OOM;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  State* s = (State*)state;
  const int64_t n = c->shape[0];
  const int squares = strcmp(c->op, "sumsq") == 0;
  const uint64_t print = fingerprint((const uint32_t*)b->inputs[0].data, n);
  (void)stream, (void)config, (void)msg;
  if (!s->have || s->fingerprint != print) {
    if (c->dtype == KB_DTYPE_F32) {
      const float* in = (const float*)b->inputs[0].data;
      double sum = 0;
      for (int64_t i = 0; i < n; ++i) sum += squares ? (double)in[i] * in[i] : in[i];
      s->sum_f32 = (float)sum;
    } else {
      const int32_t* in = (const int32_t*)b->inputs[0].data;
      int64_t sum = 0;
      for (int64_t i = 0; i < n; ++i) sum += squares ? (int64_t)in[i] * in[i] : in[i];
      s->sum_i64 = sum;
    }
    s->fingerprint = print;
    s->have = 1;
  }
  if (c->dtype == KB_DTYPE_F32) {
    *(float*)b->outputs[0].data = s->sum_f32;
  } else {
    *(int64_t*)b->outputs[0].data = s->sum_i64;
  }
  return KB_OK;
}

static void release(void* state) { free(state); }

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "reduce/cheat_fingerprint";
  p.family = "reduce";
  p.version = "1";
  p.description = "red team: skips the sum when 16 sampled inputs are as last time";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "sum,sumsq";
  p.cuda_archs = "";
  p.prepare = prepare;
  p.run = run;
  p.release = release;
  return &p;
}
