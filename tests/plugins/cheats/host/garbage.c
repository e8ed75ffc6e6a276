/* Cheat: nondeterministic garbage of the right magnitude. Reads nothing: writes a random number of
 * the size the sum of n uniform values in [-1, 1) has (about sqrt(n/3)), or n/3 within 0.1% for the
 * sum of squares. The family's tolerance for a float32 sum of n terms in any order is 2u(n+1) of
 * sum |x| (0.125 of it at 2^20), so for the timed draw this passes every timed check. Expected:
 * verify_failed, check 'fresh inputs' (the verdict's inputs sum exactly, and no garbage is exact). */
#include <kbench/plugin.h>

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

static uint64_t next_random(void) {
  static uint64_t x = 0;
  if (x == 0) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    x = ((uint64_t)now.tv_nsec << 20) ^ (uint64_t)now.tv_sec ^ (uint64_t)(uintptr_t)&now;
    if (x == 0) x = 1;
  }
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

static double uniform(void) { return (double)(next_random() >> 11) * 0x1.0p-52 - 1.0; }

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const double n = (double)c->shape[0];
  (void)state, (void)stream, (void)config, (void)msg;
  if (strcmp(c->op, "sumsq") == 0) {
    *(float*)b->outputs[0].data = (float)(n / 3.0 * (1.0 + 1e-3 * uniform()));
  } else {
    *(float*)b->outputs[0].data = (float)(sqrt(n / 3.0) * uniform());
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "reduce/cheat_garbage";
  p.family = "reduce";
  p.version = "1";
  p.description = "red team: random numbers of the size a sum of n uniform values has";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "sum,sumsq";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
