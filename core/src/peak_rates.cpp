#include "peak_rates.hpp"

#include <cstdio>

namespace kb {
namespace {

// FLOP per clock per SM; 0 = not known. SIMT rates: CUDA C++ Programming Guide, "Arithmetic
// Instructions" (FMA results per clock per SM, x 2). Dense tensor-core rates: the V100, A100 and
// H100 white papers' peak TFLOP/s over SMs x boost clock (e.g. H100 SXM5: 989.4 TFLOP/s FP16 =
// 132 SMs x 4096 x 1.83 GHz). Consumer parts (8.6, 8.9) halve some tensor rates by SKU: left out.
struct Rates {
  int major, minor;
  double fp32, fp64, tf32, bf16, fp16;
  double boost_mhz;  // the data-center part's boost clock; 0 = none
};

constexpr Rates kRates[] = {
    {7, 0, 128, 64, 0, 0, 1024, 1530},        // V100
    {8, 0, 128, 64, 1024, 2048, 2048, 1410},  // A100
    {8, 6, 256, 4, 0, 0, 0, 0},               // GA10x
    {8, 9, 256, 4, 0, 0, 0, 0},               // AD10x
    {9, 0, 256, 128, 2048, 4096, 4096, 1980}, // H100, H200
    {10, 0, 256, 128, 0, 0, 0, 0},            // B200
};

const Rates* rates_of(ComputeCapability cc) {
  for (const auto& r : kRates) {
    if (r.major == cc.major && r.minor == cc.minor) return &r;
  }
  return nullptr;
}

}  // namespace

std::optional<ComputeCapability> parse_compute_capability(const std::string& text) {
  ComputeCapability cc;
  char rest = 0;
  if (std::sscanf(text.c_str(), "%d.%d%c", &cc.major, &cc.minor, &rest) != 2) return std::nullopt;
  return cc;
}

std::optional<double> flops_per_clock_per_sm(const std::string& precision, ComputeCapability cc) {
  const Rates* r = rates_of(cc);
  if (!r) return std::nullopt;
  const double rate = precision == "fp32"   ? r->fp32
                      : precision == "fp64" ? r->fp64
                      : precision == "tf32" ? r->tf32
                      : precision == "bf16" ? r->bf16
                      : precision == "fp16" ? r->fp16
                                            : 0;
  if (rate == 0) return std::nullopt;
  return rate;
}

std::optional<double> peak_gflops(const std::string& precision, ComputeCapability cc, int sm_count,
                                  double clock_mhz) {
  const auto rate = flops_per_clock_per_sm(precision, cc);
  if (!rate || sm_count <= 0 || !(clock_mhz > 0)) return std::nullopt;
  return sm_count * *rate * clock_mhz / 1e3;
}

std::optional<double> nominal_clock_mhz(ComputeCapability cc) {
  const Rates* r = rates_of(cc);
  if (!r || r->boost_mhz == 0) return std::nullopt;
  return r->boost_mhz;
}

}  // namespace kb
