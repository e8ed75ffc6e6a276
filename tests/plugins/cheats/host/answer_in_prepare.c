/* Cheat: computes the answer in prepare, copies it in run. prepare runs after the timed draw, so
 * the stored transpose is right for every timed launch, and run is a memcpy (on a GPU, a coalesced
 * copy instead of a transpose). Expected: verify_failed, check 'fresh inputs' (the verdict redraws
 * the inputs; the stored answer is the old one). */
#include <kbench/plugin.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct State {
  uint32_t* answer;
  size_t bytes;
} State;

static kb_status prepare(const kb_case* c, const kb_buffers* b, void** state, kb_message* msg) {
  const int64_t rows = c->shape[0], cols = c->shape[1];
  const uint32_t* in = (const uint32_t*)b->inputs[0].data;
  State* s = (State*)calloc(1, sizeof(State));
  if (s == NULL) return KB_OOM;
  s->bytes = (size_t)b->outputs[0].bytes;
  s->answer = (uint32_t*)malloc(s->bytes);
  if (s->answer == NULL) {
    free(s);
    snprintf(msg->text, sizeof msg->text, "cannot allocate %zu bytes", s->bytes);
    return KB_OOM;
  }
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t col = 0; col < cols; ++col) s->answer[col * rows + r] = in[r * cols + col];
  }
  *state = s;
  return KB_OK;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const State* s = (const State*)state;
  (void)c, (void)stream, (void)config, (void)msg;
  memcpy(b->outputs[0].data, s->answer, s->bytes);
  return KB_OK;
}

static void release(void* state) {
  State* s = (State*)state;
  free(s->answer);
  free(s);
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_answer_in_prepare";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: transposes in prepare, copies the stored answer in run";
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
