#include "device/peak_rates.hpp"

namespace kb {
namespace {

// Dense operations per SM per clock (an FMA counts 2): a part's published dense peak over its SM
// count and boost clock. 0: no such unit (no BF16 or TF32 before Ampere, no FP8 before Ada, no FP64
// tensor cores outside the data-center parts). Where one compute capability spans data-center and
// GeForce parts, the figures are the data-center part's: GeForce parts accumulate FP16 and BF16 in
// FP32 at half those tensor rates, and a peak must be an upper bound.
struct PerSm {
  int fp32, fp64, fp64_tensor, tf32, bf16, fp16, fp8;
};

struct Architecture {
  int major, minor;
  PerSm rate;
  double nominal_clock_mhz;  // the boost clock of the part the figures come from
};

// TFLOP/s are dense (without 2:4 sparsity), as each source gives them.
constexpr Architecture kArchitectures[] = {
    // V100 SXM2, 80 SMs at 1530 MHz: 15.7 FP32, 7.8 FP64, 125 FP16 tensor (NVIDIA Tesla V100 GPU
    // Architecture white paper, table 1).
    {7, 0, {128, 64, 0, 0, 0, 1024, 0}, 1530},
    // T4, 40 SMs at 1590 MHz: 8.1 FP32, 65 FP16 tensor; FP64 at 1/32 of FP32 (NVIDIA Turing GPU
    // Architecture white paper, appendix A; NVIDIA T4 datasheet).
    {7, 5, {128, 4, 0, 0, 0, 1024, 0}, 1590},
    // A100 SXM4, 108 SMs at 1410 MHz: 19.5 FP32, 9.7 FP64, 19.5 FP64 tensor, 156 TF32, 312 BF16 and
    // FP16 (NVIDIA A100 Tensor Core GPU Architecture white paper, table 1).
    {8, 0, {128, 64, 128, 1024, 2048, 2048, 0}, 1410},
    // A10, 72 SMs at 1695 MHz: 31.2 FP32, 62.5 TF32, 125 BF16 and FP16; FP64 at 1/64 of FP32
    // (NVIDIA A10 datasheet; NVIDIA Ampere GA102 GPU Architecture white paper).
    {8, 6, {256, 4, 0, 512, 1024, 1024, 0}, 1695},
    // L40S, 142 SMs at 2520 MHz: 91.6 FP32, 183 TF32, 362 BF16 and FP16, 733 FP8; FP64 at 1/64 of
    // FP32 (NVIDIA L40S datasheet; NVIDIA Ada GPU Architecture white paper).
    {8, 9, {256, 4, 0, 512, 1024, 1024, 2048}, 2520},
    // H100 SXM5, 132 SMs at 1980 MHz (1830 for the tensor figures): 67 FP32, 34 FP64, 67 FP64
    // tensor, 495 TF32, 990 BF16 and FP16, 1979 FP8 (NVIDIA H100 Tensor Core GPU Architecture white
    // paper, table 3; H100 datasheet). The H200 is the same GPU.
    {9, 0, {256, 128, 256, 2048, 4096, 4096, 8192}, 1980},
    // B200 (HGX B200), 148 SMs: 75 FP32, 37 FP64 and FP64 tensor, 1.1 P TF32, 2.25 P BF16 and FP16,
    // 4.5 P FP8 (NVIDIA Blackwell Architecture Technical Brief, per-GPU specifications; HGX B200
    // datasheet). Its clock: 75 TFLOP/s FP32 over 148 SMs x 256.
    {10, 0, {256, 128, 128, 4096, 8192, 8192, 16384}, 1980},
    // B300 (HGX B300, Blackwell Ultra), 148 SMs: as the B200 but 1.25 FP64 and FP64 tensor (NVIDIA
    // HGX B300 datasheet; Blackwell Ultra technical brief). Its clock as the B200's.
    {10, 3, {256, 4, 4, 4096, 8192, 8192, 16384}, 1980},
    // RTX PRO 6000 Blackwell Server Edition, 188 SMs: 125 FP32, 250 TF32, 500 BF16 and FP16,
    // 1 P FP8; FP64 at 1/64 of FP32 (NVIDIA RTX PRO 6000 Blackwell datasheet; NVIDIA RTX Blackwell
    // GPU Architecture white paper). Its clock: 125 TFLOP/s FP32 over 188 SMs x 256. The GeForce RTX 50
    // series is the same architecture.
    {12, 0, {256, 4, 0, 512, 1024, 1024, 2048}, 2597},
};

const Architecture* find(int major, int minor) {
  for (const auto& architecture : kArchitectures) {
    if (architecture.major == major && architecture.minor == minor) return &architecture;
  }
  return nullptr;
}

constexpr Math kMaths[] = {Math::fp32, Math::fp64, Math::fp64_tensor, Math::tf32,
                           Math::bf16, Math::fp16, Math::fp8};

}  // namespace

const char* math_name(Math math) {
  switch (math) {
    case Math::fp32: return "fp32";
    case Math::fp64: return "fp64";
    case Math::fp64_tensor: return "fp64_tensor";
    case Math::tf32: return "tf32";
    case Math::bf16: return "bf16";
    case Math::fp16: return "fp16";
    case Math::fp8: return "fp8";
    case Math::unknown: break;
  }
  return "";
}

Math parse_math(const std::string& name) {
  for (Math m : kMaths) {
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
    case Math::fp8: return fp8;
    case Math::unknown: break;
  }
  return 0;
}

PeakRates peak_rates(int cc_major, int cc_minor, int sm_count, double sm_clock_mhz) {
  const Architecture* architecture = find(cc_major, cc_minor);
  if (architecture == nullptr) return {};
  const PerSm& rate = architecture->rate;
  const double giga_clocks = sm_count * sm_clock_mhz / 1e3;  // SM-clocks per ns
  PeakRates peaks;
  peaks.known = true;
  peaks.fp32 = rate.fp32 * giga_clocks;
  peaks.fp64 = rate.fp64 * giga_clocks;
  peaks.fp64_tensor = rate.fp64_tensor * giga_clocks;
  peaks.tf32 = rate.tf32 * giga_clocks;
  peaks.bf16 = rate.bf16 * giga_clocks;
  peaks.fp16 = rate.fp16 * giga_clocks;
  peaks.fp8 = rate.fp8 * giga_clocks;
  peaks.load_store_gbps = 128 * giga_clocks;
  return peaks;
}

double nominal_sm_clock_mhz(int cc_major, int cc_minor) {
  const Architecture* architecture = find(cc_major, cc_minor);
  return architecture ? architecture->nominal_clock_mhz : 0;
}

}  // namespace kb
