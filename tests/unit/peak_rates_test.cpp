// The per-SM rate table against the peaks NVIDIA publishes for whole parts.
#include "gpu_model.hpp"
#include "peak_rates.hpp"

#include <gtest/gtest.h>

namespace kb {
namespace {

TEST(PeakRates, MatchThePublishedPeaks) {
  const ComputeCapability hopper{9, 0}, ampere{8, 0};
  // H100 SXM5 at its 1830 MHz tensor boost: 989.4 TFLOP/s FP16 and BF16, 494.7 TF32 (dense).
  EXPECT_NEAR(*peak_gflops("fp16", hopper, 132, 1830), 989.4e3, 0.1e3);
  EXPECT_NEAR(*peak_gflops("bf16", hopper, 132, 1830), 989.4e3, 0.1e3);
  EXPECT_NEAR(*peak_gflops("tf32", hopper, 132, 1830), 494.7e3, 0.1e3);
  // The SIMT FMA peaks the runner's `peak` column holds on the committed H100 rows at 1980 MHz.
  EXPECT_NEAR(*peak_gflops("fp32", hopper, 132, 1980), 66908, 1);
  EXPECT_NEAR(*peak_gflops("fp64", hopper, 132, 1980), 33454, 1);
  // A100 at 1410 MHz: 19.5 TFLOP/s FP32, 156 TF32, 312 BF16.
  EXPECT_NEAR(*peak_gflops("fp32", ampere, 108, 1410), 19.5e3, 0.05e3);
  EXPECT_NEAR(*peak_gflops("tf32", ampere, 108, 1410), 156e3, 0.5e3);
  EXPECT_NEAR(*peak_gflops("bf16", ampere, 108, 1410), 312e3, 0.5e3);
}

TEST(PeakRates, UnknownPrecisionsAndPartsHaveNoPeak) {
  EXPECT_FALSE(peak_gflops("copy", {9, 0}, 132, 1980));
  EXPECT_FALSE(peak_gflops("tf32", {7, 0}, 80, 1530));  // V100 has no TF32
  EXPECT_FALSE(peak_gflops("fp32", {5, 2}, 24, 1000));
  EXPECT_FALSE(peak_gflops("fp32", {9, 0}, 132, 0));
  EXPECT_EQ(*nominal_clock_mhz({9, 0}), 1980);
  EXPECT_FALSE(nominal_clock_mhz({8, 9}));
}

TEST(PeakRates, ComputeCapabilityParses) {
  const auto cc = parse_compute_capability("10.0");
  ASSERT_TRUE(cc);
  EXPECT_EQ(cc->major, 10);
  EXPECT_EQ(cc->minor, 0);
  EXPECT_FALSE(parse_compute_capability(""));
  EXPECT_FALSE(parse_compute_capability("9"));
  EXPECT_FALSE(parse_compute_capability("9.0x"));
}

}  // namespace
}  // namespace kb
