/* Cheat: claims a determinism it does not have. A split-K float32 matmul: K in four slices, each
 * summed in order, the four partial sums added in whichever order the "threads" finish (here: a
 * random order per entry, as float atomics would give). Every output is within the tolerance, but
 * two launches on the same inputs differ bit for bit, and the strategy does not declare
 * KB_FLAG_NONDETERMINISTIC, so its rows would claim reproducible outputs (and a comparison of two
 * runs' outputs could not tell a broken kernel from this one). Expected: verify_failed, check
 * 'deterministic'. */
#include <kbench/plugin.h>

#include <stdint.h>
#include <time.h>

#define SLICES 4

static uint64_t next_random(void) {
  static uint64_t x = 0;
  if (x == 0) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    x = ((uint64_t)now.tv_nsec << 20) ^ (uint64_t)now.tv_sec ^ 0x9E3779B97F4A7C15ull;
  }
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t M = c->shape[0], N = c->shape[1], K = c->shape[2];
  const float* A = (const float*)b->inputs[0].data;
  const float* B = (const float*)b->inputs[1].data;
  float* C = (float*)b->outputs[0].data;
  (void)state, (void)stream, (void)config, (void)msg;
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      float partial[SLICES] = {0, 0, 0, 0};
      for (int s = 0; s < SLICES; ++s) {
        for (int64_t k = s * K / SLICES; k < (s + 1) * K / SLICES; ++k) {
          partial[s] += A[i * K + k] * B[k * N + j];
        }
      }
      /* The order the slices "arrive" in: a random rotation and direction. */
      const uint64_t r = next_random();
      const int first = (int)(r % SLICES), step = (r >> 8) & 1 ? 1 : SLICES - 1;
      float sum = 0;
      for (int s = 0, at = first; s < SLICES; ++s, at = (at + step) % SLICES) sum += partial[at];
      C[i * N + j] = sum;
    }
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "matmul/cheat_random_order";
  p.family = "matmul";
  p.version = "1";
  p.description = "red team: split-K added in a random order, KB_FLAG_NONDETERMINISTIC not declared";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE | KB_FLAG_MATH_SIMT;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
