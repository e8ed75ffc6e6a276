/* Cheat: leaves the work running after run returns. run starts a detached host thread that
 * transposes a little later and returns at once, so the timed call costs a thread start; release
 * waits for the threads still running, so nothing writes freed memory. (On CUDA the same trick is a
 * kernel on a private stream: cuda/private_stream.cu.) Expected: verify_failed, check 'timed launch'
 * (the output is checked as soon as run returns, and it still holds the poison), or, where an
 * earlier launch's late thread filled that output first, check 'unpoisoned launch' (it finds the
 * output half written). */
#include <kbench/plugin.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define DELAY_NS 20000000L /* 20 ms */

typedef struct State {
  atomic_int running;
} State;

typedef struct Job {
  State* state;
  int64_t rows, cols;
  const uint32_t* in;
  uint32_t* out;
} Job;

static void* transpose_later(void* arg) {
  Job* job = (Job*)arg;
  const struct timespec delay = {0, DELAY_NS};
  nanosleep(&delay, NULL);
  for (int64_t r = 0; r < job->rows; ++r) {
    for (int64_t col = 0; col < job->cols; ++col) {
      job->out[col * job->rows + r] = job->in[r * job->cols + col];
    }
  }
  atomic_fetch_sub(&job->state->running, 1);
  free(job);
  return NULL;
}

static kb_status prepare(const kb_case* c, const kb_buffers* b, void** state, kb_message* msg) {
  State* s = (State*)calloc(1, sizeof(State));
  (void)c, (void)b, (void)msg;
  if (s == NULL) return KB_OOM;
  atomic_init(&s->running, 0);
  *state = s;
  return KB_OK;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  State* s = (State*)state;
  pthread_t thread;
  Job* job = (Job*)malloc(sizeof(Job));
  (void)stream, (void)config;
  if (job == NULL) return KB_OOM;
  job->state = s;
  job->rows = c->shape[0];
  job->cols = c->shape[1];
  job->in = (const uint32_t*)b->inputs[0].data;
  job->out = (uint32_t*)b->outputs[0].data;
  atomic_fetch_add(&s->running, 1);
  if (pthread_create(&thread, NULL, transpose_later, job) != 0) {
    atomic_fetch_sub(&s->running, 1);
    free(job);
    snprintf(msg->text, sizeof msg->text, "cannot start a thread");
    return KB_ERROR;
  }
  pthread_detach(thread);
  return KB_OK;
}

static void release(void* state) {
  State* s = (State*)state;
  const struct timespec tick = {0, 1000000L};
  while (atomic_load(&s->running) > 0) nanosleep(&tick, NULL);
  free(s);
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_late_thread";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: a detached host thread transposes after run returned";
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
