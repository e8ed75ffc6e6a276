#include "device/peak_rates.hpp"

namespace kb {
namespace {

// Dense operations per SM per clock (an FMA counts 2).
struct PerSm {
  int fp32, fp64, fp64_tensor, tf32, fp16;  // bf16 runs at the fp16 rate on every architecture
};                                          // listed; fp64_tensor 0: no FP64 tensor cores

PerSm per_sm(int major, int minor) {
  if (major == 7 && minor == 0) return {128, 64, 0, 0, 1024};          // V100
  if (major == 7 && minor == 5) return {128, 4, 0, 0, 1024};           // Turing
  if (major == 8 && minor == 0) return {128, 64, 128, 1024, 2048};     // A100
  if (major == 8) return {256, 4, 0, 512, 1024};                       // GA10x, AD10x
  if (major == 9 && minor == 0) return {256, 128, 256, 2048, 4096};    // H100, H200
  if (major == 10 && minor == 0) return {256, 128, 128, 4096, 8192};   // B200
  return {0, 0, 0, 0, 0};
}

}  // namespace

const char* math_name(Math math) {
  switch (math) {
    case Math::fp32: return "fp32";
    case Math::fp64: return "fp64";
    case Math::fp64_tensor: return "fp64_tensor";
    case Math::tf32: return "tf32";
    case Math::bf16: return "bf16";
    case Math::fp16: return "fp16";
    case Math::unknown: break;
  }
  return "";
}

Math parse_math(const std::string& name) {
  for (Math m : {Math::fp32, Math::fp64, Math::fp64_tensor, Math::tf32, Math::bf16, Math::fp16}) {
    if (name == math_name(m)) return m;
  }
  return Math::unknown;
}

double PeakRates::of(Math math) const {
  switch (math) {
    case Math::fp32: return fp32;
    case Math::fp64: return fp64;
    case Math::fp64_tensor: return fp64_tensor;
    case Math::tf32: return tf32;
    case Math::bf16: return bf16;
    case Math::fp16: return fp16;
    case Math::unknown: break;
  }
  return 0;
}

PeakRates peak_rates(int cc_major, int cc_minor, int sm_count, double sm_clock_mhz) {
  const PerSm rate = per_sm(cc_major, cc_minor);
  const double giga_clocks = sm_count * sm_clock_mhz / 1e3;  // SM-clocks per ns
  PeakRates peaks;
  peaks.fp32 = rate.fp32 * giga_clocks;
  peaks.fp64 = rate.fp64 * giga_clocks;
  peaks.fp64_tensor = rate.fp64_tensor * giga_clocks;
  peaks.tf32 = rate.tf32 * giga_clocks;
  peaks.fp16 = rate.fp16 * giga_clocks;
  peaks.bf16 = rate.fp16 * giga_clocks;
  peaks.load_store_gbps = 128 * giga_clocks;
  return peaks;
}

double nominal_sm_clock_mhz(int cc_major, int cc_minor) {
  if (cc_major == 7 && cc_minor == 0) return 1530;  // V100 SXM2
  if (cc_major == 8 && cc_minor == 0) return 1410;  // A100
  if (cc_major == 9 && cc_minor == 0) return 1980;  // H100 SXM, H200
  return 0;
}

}  // namespace kb
