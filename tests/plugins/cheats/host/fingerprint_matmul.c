/* Cheat: caches the product by an input fingerprint. Sixteen elements of A and sixteen of B, evenly
 * spaced, hashed: when the hash is the last one's, the cached C is copied (O(MN) instead of O(MNK));
 * otherwise it multiplies honestly and caches. Every timed launch runs on the same inputs; the
 * verdict's fresh inputs change the fingerprint, so they are multiplied honestly, and the second
 * launch on them copies the right answer. Expected: a non-ok status; today no functional check can
 * see it, and a host row has no FLOP/s ceiling (a GPU row does: predicted `implausible` there at
 * large sizes). */
#include <kbench/plugin.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROBES 16

typedef struct State {
  int have;
  uint64_t fingerprint;
  float* cached;
} State;

static uint64_t mix(uint64_t h, const uint32_t* words, uint64_t count) {
  for (int p = 0; p < PROBES; ++p) {
    const uint64_t i = count > 1 ? (uint64_t)p * (count - 1) / (PROBES - 1) : 0;
    h = (h ^ words[i]) * 0x100000001B3ull;
  }
  return h;
}

static kb_status prepare(const kb_case* c, const kb_buffers* b, void** state, kb_message* msg) {
  State* s = (State*)calloc(1, sizeof(State));
  (void)c;
  if (s == NULL) return KB_OOM;
  s->cached = (float*)malloc((size_t)b->outputs[0].bytes);
  if (s->cached == NULL) {
    free(s);
    snprintf(msg->text, sizeof msg->text, "cannot allocate the cache");
    return KB_OOM;
  }
  *state = s;
  return KB_OK;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  State* s = (State*)state;
  const int64_t M = c->shape[0], N = c->shape[1], K = c->shape[2];
  const float* A = (const float*)b->inputs[0].data;
  const float* B = (const float*)b->inputs[1].data;
  float* C = (float*)b->outputs[0].data;
  const uint64_t print = mix(mix(0xCBF29CE484222325ull, (const uint32_t*)A, b->inputs[0].count),
                             (const uint32_t*)B, b->inputs[1].count);
  (void)stream, (void)config, (void)msg;
  if (!s->have || s->fingerprint != print) {
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j = 0; j < N; ++j) {
        float sum = 0;
        for (int64_t k = 0; k < K; ++k) sum += A[i * K + k] * B[k * N + j];
        s->cached[i * N + j] = sum;
      }
    }
    s->fingerprint = print;
    s->have = 1;
  }
  memcpy(C, s->cached, (size_t)b->outputs[0].bytes);
  return KB_OK;
}

static void release(void* state) {
  State* s = (State*)state;
  free(s->cached);
  free(s);
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "matmul/cheat_fingerprint";
  p.family = "matmul";
  p.version = "1";
  p.description = "red team: copies a cached C when 32 sampled inputs are as last time";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_SIMT;
  p.ops = "";
  p.cuda_archs = "";
  p.prepare = prepare;
  p.run = run;
  p.release = release;
  return &p;
}
