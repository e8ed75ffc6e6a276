/* A control for the 'changed inputs' check: the honest host transpose, on a host that is held up
 * once. From the first change of its inputs after its first launch (the verdict's fresh draw),
 * each launch for the next 10 ms is 1 ms slower, as when other work takes the CPU for a while (a
 * busy CI machine). A memo misses on every change of the inputs; this slows down once, for a
 * while, and must stay `ok`: the check tries again later, not only a millisecond apart. */
#include <kbench/plugin.h>

#include <stdint.h>
#include <string.h>
#include <time.h>

static const double kHeldUpForSeconds = 0.010;
static const double kSlowerBySeconds = 1e-3;

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t digest(const uint32_t* words, int64_t count) {
  uint64_t h = 1469598103934665603ull;
  for (int64_t i = 0; i < count; ++i) h = (h ^ words[i]) * 1099511628211ull;
  return h;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  static int launched = 0;
  static uint64_t first_inputs = 0;
  static double held_up_until = -1;
  const int64_t rows = c->shape[0], cols = c->shape[1];
  const uint32_t* in = (const uint32_t*)b->inputs[0].data;
  uint32_t* out = (uint32_t*)b->outputs[0].data;
  (void)state, (void)stream, (void)config, (void)msg;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t col = 0; col < cols; ++col) out[col * rows + r] = in[r * cols + col];
  }
  const uint64_t inputs = digest(in, rows * cols);
  const double now = now_seconds();
  if (!launched) {
    launched = 1;
    first_inputs = inputs;
  } else if (held_up_until < 0 && inputs != first_inputs) {
    held_up_until = now + kHeldUpForSeconds;
  }
  if (now < held_up_until) {
    const double until = now + kSlowerBySeconds;
    while (now_seconds() < until) {
    }
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  memset(&p, 0, sizeof p);
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/redteam_held_up";
  p.family = "transpose";
  p.version = "1";
  p.description = "red-team control: an honest host transpose, held up for 10 ms when its inputs first change";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
