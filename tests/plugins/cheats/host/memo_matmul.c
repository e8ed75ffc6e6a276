/* Cheat: memoizes the product by a digest of all its inputs. Hashing A and B reads M*K + K*N
 * elements, the case's minimum traffic; when the digest is the last one's, the cached C is copied:
 * no multiply-add at all. Unlike cheat_fingerprint it cannot be fooled by inputs that change where
 * it does not look: it looks everywhere. It is a pure function of the inputs, so every functional
 * check passes; only a rate can show it (FLOP/s above the device's peak on a GPU, at sizes where
 * hashing and copying are far faster than multiplying), or timed launches that never see the same
 * inputs twice. Expected: verify_failed, check 'changed inputs' (the launch after a near redraw
 * multiplies: docs/red-team.md). */
#include <kbench/plugin.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct State {
  int have;
  uint64_t digest;
  float* cached;
} State;

static uint64_t digest(uint64_t h, const uint32_t* words, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) h = (h ^ words[i]) * 0x100000001B3ull;
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
  const uint64_t d = digest(digest(0xCBF29CE484222325ull, (const uint32_t*)A, b->inputs[0].count),
                            (const uint32_t*)B, b->inputs[1].count);
  (void)stream, (void)config, (void)msg;
  if (!s->have || s->digest != d) {
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j = 0; j < N; ++j) {
        float sum = 0;
        for (int64_t k = 0; k < K; ++k) sum += A[i * K + k] * B[k * N + j];
        s->cached[i * N + j] = sum;
      }
    }
    s->digest = d;
    s->have = 1;
  }
  memcpy(b->outputs[0].data, s->cached, (size_t)b->outputs[0].bytes);
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
  p.name = "matmul/cheat_memo";
  p.family = "matmul";
  p.version = "1";
  p.description = "red team: copies a cached C when a digest of all of A and B is as last time";
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
