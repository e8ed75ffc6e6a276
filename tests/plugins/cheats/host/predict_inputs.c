/* Cheat: predicts the inputs instead of reading them. kbench's inputs are public: SplitMix64 under
 * the run's seed (42 unless --seed says otherwise), stream 1 for transpose's `in`, float32 uniform in
 * [-1, 1) and int32 over the whole range, as kbench/support/random.hpp's random_value. This strategy
 * writes out[c * rows + r] = value(r * cols + c) from that formula and never reads `in`: on a GPU a
 * write-only kernel, half the traffic of a transpose. Expected: verify_failed, check 'fresh inputs'
 * (the verdict's inputs come from another seed). */
#include <kbench/plugin.h>

#include <stdint.h>

#define DEFAULT_SEED 42u
#define INPUT_STREAM 1u

static uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static uint64_t random_bits(uint64_t seed, uint64_t stream, uint64_t index) {
  return mix64(mix64(seed ^ mix64(stream)) + index);
}

/* random_value<float> and random_value<int32_t>(..., INT32_MIN, INT32_MAX), as 4-byte words. */
static uint32_t predicted(kb_dtype dtype, uint64_t seed, uint64_t index) {
  const uint64_t bits = random_bits(seed, INPUT_STREAM, index);
  if (dtype == KB_DTYPE_F32) {
    const double unit = (double)(bits >> 11) * 0x1.0p-53;
    const float value = (float)(2.0 * unit - 1.0);
    union { float f; uint32_t u; } word;
    word.f = value;
    return word.u;
  }
  return (uint32_t)(int32_t)(INT32_MIN + (int64_t)(bits % 4294967296ull));
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t rows = c->shape[0], cols = c->shape[1];
  uint32_t* out = (uint32_t*)b->outputs[0].data;
  (void)state, (void)stream, (void)config, (void)msg;
  for (int64_t col = 0; col < cols; ++col) {
    for (int64_t r = 0; r < rows; ++r) {
      out[col * rows + r] = predicted(c->dtype, DEFAULT_SEED, (uint64_t)(r * cols + col));
    }
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_predict_inputs";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: regenerates the inputs from seed 42 and never reads them";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
