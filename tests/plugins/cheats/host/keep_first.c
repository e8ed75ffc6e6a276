/* Cheat: keeps the result of the first launch and writes it back. The first run sums `in`; every
 * later one writes that sum again without reading anything: O(1) instead of O(n). The inputs of
 * every timed launch are the same, so each checked sample is right. Against its own v2 verify this
 * was `ok` at 4.7x CUB. Expected: verify_failed, check 'fresh inputs'. */
#include <kbench/plugin.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct State {
  int have;
  float sum_f32;
  int64_t sum_i64;
} State;

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
  (void)stream, (void)config, (void)msg;
  if (!s->have) {
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
  p.name = "reduce/cheat_keep_first";
  p.family = "reduce";
  p.version = "1";
  p.description = "red team: sums once, then writes the first launch's sum back";
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
