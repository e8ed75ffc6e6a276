/* Cheat: predicts the verdict's inputs too. The runner's source is public: the inputs of the
 * verdict are drawn from mix64(seed ^ 0xF8E5D0C4B3A29180) (core/lib/measure/case_timer.cpp), the
 * case's seed is 42 by default and written in every row. This strategy reads one input element,
 * in[0], to tell which of the two draws is in place, and writes the transpose of that draw from the
 * formula without reading the rest of `in` (on a GPU: write-only, half a transpose's traffic); where
 * in[0] matches neither, it takes the timed draw's. (With an honest transpose there instead, it is
 * simply honest wherever the inputs cannot be predicted.) Expected: a non-ok status once no draw's
 * seed can be predicted: check 'timed launch'. */
#include <kbench/plugin.h>

#include <stdint.h>

#define DEFAULT_SEED 42u
#define INPUT_STREAM 1u
#define VERDICT_SALT 0xF8E5D0C4B3A29180ull

static uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static uint64_t random_bits(uint64_t seed, uint64_t stream, uint64_t index) {
  return mix64(mix64(seed ^ mix64(stream)) + index);
}

static uint32_t predicted(kb_dtype dtype, uint64_t seed, uint64_t index) {
  const uint64_t bits = random_bits(seed, INPUT_STREAM, index);
  if (dtype == KB_DTYPE_F32) {
    const double unit = (double)(bits >> 11) * 0x1.0p-53;
    union { float f; uint32_t u; } word;
    word.f = (float)(2.0 * unit - 1.0);
    return word.u;
  }
  return (uint32_t)(int32_t)(INT32_MIN + (int64_t)(bits % 4294967296ull));
}

static kb_status run(void* state, const kb_case* c, const kb_buffers* b, void* stream,
                     kb_launch_config* config, kb_message* msg) {
  const int64_t rows = c->shape[0], cols = c->shape[1];
  const uint32_t* in = (const uint32_t*)b->inputs[0].data;
  uint32_t* out = (uint32_t*)b->outputs[0].data;
  const uint64_t seeds[2] = {DEFAULT_SEED, mix64(DEFAULT_SEED ^ VERDICT_SALT)};
  const uint64_t seed = in[0] == predicted(c->dtype, seeds[1], 0) ? seeds[1] : seeds[0];
  (void)state, (void)stream, (void)config, (void)msg;
  for (int64_t col = 0; col < cols; ++col) {
    for (int64_t r = 0; r < rows; ++r) {
      out[col * rows + r] = predicted(c->dtype, seed, (uint64_t)(r * cols + col));
    }
  }
  return KB_OK;
}

KB_EXPORT const KernelPlugin* kbench_plugin(void) {
  static KernelPlugin p;
  p.abi_version = KB_ABI_VERSION;
  p.struct_size = sizeof(KernelPlugin);
  p.name = "transpose/cheat_predict_check_seed";
  p.family = "transpose";
  p.version = "1";
  p.description = "red team: predicts the timed and the verdict's inputs from the public seeds";
  p.device = KB_DEVICE_HOST;
  p.dtypes = KB_DTYPE_F32 | KB_DTYPE_I32;
  p.flags = KB_FLAG_OWN_LAUNCH_SHAPE;
  p.ops = "";
  p.cuda_archs = "";
  p.run = run;
  return &p;
}
