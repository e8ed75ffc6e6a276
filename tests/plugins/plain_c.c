/* A host plugin in plain C, written against kbench/plugin.h alone, as an author without the C++
 * helpers writes one: y = 3x + 1 on n int32. KBT_FAULT "passed_zero": verify returns KB_OK but
 * sets passed = 0, which the runner must record as a failed verification. */
#include <kbench/plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KBT_IS(fault) (strcmp(KBT_FAULT, fault) == 0)

typedef struct State {
  int64_t n;
  int32_t *x, *y;
} State;

static void teardown(void* state) {
  State* s = (State*)state;
  free(s->x);
  free(s->y);
  free(s);
}

static kb_status setup(const kb_case* c, void** state, kb_work* work, kb_message* msg) {
  State* s = (State*)calloc(1, sizeof(State));
  if (s == NULL) return KB_OOM;
  s->n = c->shape[0];
  s->x = (int32_t*)malloc((size_t)s->n * sizeof(int32_t));
  s->y = (int32_t*)malloc((size_t)s->n * sizeof(int32_t));
  if (s->x == NULL || s->y == NULL) {
    snprintf(msg->text, sizeof msg->text, "cannot allocate %lld elements", (long long)s->n);
    teardown(s);
    return KB_OOM;
  }
  for (int64_t i = 0; i < s->n; ++i) s->x[i] = (int32_t)((i * 7 + (int64_t)c->seed) % 1000) + 1;
  work->bytes = 8.0 * (double)s->n;
  work->flops = 2.0 * (double)s->n;
  *state = s;
  return KB_OK;
}

static kb_status poison(void* state, void* stream, kb_message* msg) {
  State* s = (State*)state;
  (void)stream, (void)msg;
  memset(s->y, 0xFF, (size_t)s->n * sizeof(int32_t));
  return KB_OK;
}

static kb_status launch(void* state, void* stream, kb_launch_config* config, kb_message* msg) {
  State* s = (State*)state;
  (void)stream, (void)config, (void)msg;
  for (int64_t i = 0; i < s->n; ++i) s->y[i] = 3 * s->x[i] + 1;
  return KB_OK;
}

static kb_status verify(void* state, kb_verification* result, kb_message* msg) {
  State* s = (State*)state;
  (void)msg;
  result->passed = 1;
  result->checked = (uint64_t)s->n;
  for (int64_t i = 0; i < s->n; ++i) {
    if (s->y[i] != 3 * s->x[i] + 1) result->passed = 0;
  }
  if (KBT_IS("passed_zero")) result->passed = 0;
  return KBT_IS("passed_zero") ? KB_OK : (result->passed ? KB_OK : KB_VERIFY_FAILED);
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin plugin;
  plugin.abi_version = KB_ABI_VERSION;
  plugin.struct_size = sizeof(KernelPlugin);
  plugin.name = KBT_NAME;
  plugin.family = "plain_c";
  plugin.version = "1";
  plugin.description = "plain C host plugin: " KBT_FAULT;
  plugin.device = KB_DEVICE_HOST;
  plugin.dtypes = KB_DTYPE_I32;
  plugin.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  plugin.ops = "";
  plugin.cuda_archs = "";
  plugin.setup = setup;
  plugin.poison = poison;
  plugin.launch = launch;
  plugin.verify = verify;
  plugin.teardown = teardown;
  return &plugin;
}
