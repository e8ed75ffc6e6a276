// The per-SM rate table against the peaks NVIDIA publishes for whole parts (dense, without
// sparsity), and the nominal clock for rows without one.
#include "device/peak_rates.hpp"

#include <gtest/gtest.h>

namespace kb {
namespace {

TEST(PublishedPeaks, Hopper) {
  // H100 SXM5 at its 1830 MHz tensor boost: 989.4 TFLOP/s FP16 and BF16, 494.7 TF32, 1979 FP8.
  const PeakRates h100 = peak_rates(9, 0, 132, 1830);
  EXPECT_NEAR(h100.fp16, 989.4e3, 0.1e3);
  EXPECT_NEAR(h100.bf16, 989.4e3, 0.1e3);
  EXPECT_NEAR(h100.tf32, 494.7e3, 0.1e3);
  EXPECT_NEAR(h100.fp8, 1979e3, 1e3);
  // H100 SXM5 at 1980 MHz: 67 TFLOP/s FP64 on the tensor cores, 33.5 on the CUDA cores.
  const PeakRates h100_boost = peak_rates(9, 0, 132, 1980);
  EXPECT_NEAR(h100_boost.fp64_tensor, 66.9e3, 0.1e3);
  EXPECT_NEAR(h100_boost.fp64, 33.5e3, 0.1e3);
}

TEST(PublishedPeaks, AmpereHasNoFp8) {
  // A100 at 1410 MHz: 19.5 TFLOP/s FP32, 156 TF32, 312 BF16, 19.5 FP64 tensor.
  const PeakRates a100 = peak_rates(8, 0, 108, 1410);
  EXPECT_TRUE(a100.known);
  EXPECT_NEAR(a100.fp32, 19.5e3, 0.05e3);
  EXPECT_NEAR(a100.tf32, 156e3, 0.5e3);
  EXPECT_NEAR(a100.bf16, 312e3, 0.5e3);
  EXPECT_NEAR(a100.fp64_tensor, 19.5e3, 0.05e3);
  EXPECT_EQ(a100.fp8, 0);
  // A10 at 1695 MHz: 31.2 FP32, 125 BF16; no FP64 tensor cores.
  const PeakRates a10 = peak_rates(8, 6, 72, 1695);
  EXPECT_NEAR(a10.fp32, 31.2e3, 0.1e3);
  EXPECT_NEAR(a10.bf16, 125e3, 0.5e3);
  EXPECT_EQ(a10.fp64_tensor, 0);
}

TEST(PublishedPeaks, AdaAndBlackwell) {
  // L40S at 2520 MHz: 91.6 FP32, 362 BF16, 733 FP8.
  const PeakRates l40s = peak_rates(8, 9, 142, 2520);
  EXPECT_NEAR(l40s.fp32, 91.6e3, 0.1e3);
  EXPECT_NEAR(l40s.bf16, 362e3, 5e3);
  EXPECT_NEAR(l40s.fp8, 733e3, 1e3);
  EXPECT_EQ(l40s.fp64_tensor, 0);
  // B200 (148 SMs, 1980 MHz): 75 FP32, 37.5 FP64, 2.4 P BF16, 4.8 P FP8 at this clock (the
  // datasheet's 2.25 and 4.5 P are at a lower tensor clock: a peak here is an upper bound).
  const PeakRates b200 = peak_rates(10, 0, 148, 1980);
  EXPECT_NEAR(b200.fp32, 75.0e3, 0.1e3);
  EXPECT_NEAR(b200.fp64, 37.5e3, 0.1e3);
  EXPECT_GE(b200.bf16, 2.25e6);
  EXPECT_GE(b200.fp8, 4.5e6);
  EXPECT_EQ(b200.fp8, 2 * b200.bf16);
  // B300: the B200's rates but for FP64, 1.25 TFLOP/s on the datasheet.
  const PeakRates b300 = peak_rates(10, 3, 148, 1980);
  EXPECT_EQ(b300.bf16, b200.bf16);
  EXPECT_NEAR(b300.fp64, 1.17e3, 0.01e3);
  EXPECT_GT(b300.fp64 * 1.10, 1.25e3);  // within the plausibility check's slack of the datasheet
  // RTX PRO 6000 Blackwell (188 SMs, 2597 MHz): 125 FP32, 500 BF16, 1 P FP8.
  const PeakRates rtx = peak_rates(12, 0, 188, 2597);
  EXPECT_NEAR(rtx.fp32, 125e3, 0.1e3);
  EXPECT_NEAR(rtx.bf16, 500e3, 1e3);
  EXPECT_NEAR(rtx.fp8, 1000e3, 2e3);
}

TEST(PublishedPeaks, NoBf16OrTf32BeforeAmpere) {
  const PeakRates v100 = peak_rates(7, 0, 80, 1530);
  EXPECT_NEAR(v100.fp16, 125e3, 0.5e3);
  EXPECT_EQ(v100.bf16, 0);
  EXPECT_EQ(v100.tf32, 0);
  EXPECT_NEAR(peak_rates(7, 5, 40, 1590).fp32, 8.1e3, 0.1e3);  // T4
}

TEST(PublishedPeaks, AnArchitectureNotInTheTableHasNoPeaksAtAll) {
  // Jetson Orin (8.7), Thor (11.0), GB10 (12.1): no other generation's figures, no zeros as roofs.
  for (const auto& [major, minor] : {std::pair{8, 7}, {11, 0}, {12, 1}, {42, 0}}) {
    const PeakRates peaks = peak_rates(major, minor, 100, 2000);
    EXPECT_FALSE(peaks.known) << major << "." << minor;
    EXPECT_EQ(peaks.fp32, 0);
    EXPECT_EQ(peaks.load_store_gbps, 0);
    EXPECT_EQ(nominal_sm_clock_mhz(major, minor), 0);
  }
}

TEST(PublishedPeaks, NominalClockOfThePartTheFiguresComeFrom) {
  EXPECT_EQ(nominal_sm_clock_mhz(9, 0), 1980);
  EXPECT_EQ(nominal_sm_clock_mhz(8, 0), 1410);
  EXPECT_EQ(nominal_sm_clock_mhz(8, 9), 2520);   // L40S
  EXPECT_EQ(nominal_sm_clock_mhz(10, 0), 1980);  // B200
  EXPECT_EQ(nominal_sm_clock_mhz(10, 3), 1980);  // B300
  EXPECT_EQ(nominal_sm_clock_mhz(12, 0), 2597);  // RTX PRO 6000 Blackwell
}

TEST(PublishedPeaks, MathNamesRoundTrip) {
  for (Math m : {Math::fp32, Math::fp64, Math::fp64_tensor, Math::tf32, Math::bf16, Math::fp16,
                 Math::fp8}) {
    EXPECT_EQ(parse_math(math_name(m)), m);
  }
  EXPECT_EQ(parse_math("copy"), Math::unknown);
}

}  // namespace
}  // namespace kb
