// The per-SM rate table against the peaks NVIDIA publishes for whole parts, and the nominal clock
// for rows without one.
#include "device/peak_rates.hpp"

#include <gtest/gtest.h>

namespace kb {
namespace {

TEST(PublishedPeaks, MatchTheTable) {
  // H100 SXM5 at its 1830 MHz tensor boost: 989.4 TFLOP/s FP16 and BF16, 494.7 TF32 (dense).
  const PeakRates h100 = peak_rates(9, 0, 132, 1830);
  EXPECT_NEAR(h100.fp16, 989.4e3, 0.1e3);
  EXPECT_NEAR(h100.bf16, 989.4e3, 0.1e3);
  EXPECT_NEAR(h100.tf32, 494.7e3, 0.1e3);
  // H100 SXM5 at 1980 MHz: 67 TFLOP/s FP64 on the tensor cores, 33.5 on the CUDA cores.
  const PeakRates h100_boost = peak_rates(9, 0, 132, 1980);
  EXPECT_NEAR(h100_boost.fp64_tensor, 66.9e3, 0.1e3);
  EXPECT_NEAR(h100_boost.fp64, 33.5e3, 0.1e3);
  // A100 at 1410 MHz: 19.5 TFLOP/s FP32, 156 TF32, 312 BF16.
  const PeakRates a100 = peak_rates(8, 0, 108, 1410);
  EXPECT_NEAR(a100.fp32, 19.5e3, 0.05e3);
  EXPECT_NEAR(a100.tf32, 156e3, 0.5e3);
  EXPECT_NEAR(a100.bf16, 312e3, 0.5e3);
  EXPECT_NEAR(a100.fp64_tensor, 19.5e3, 0.05e3);
  // No FP64 tensor cores on the consumer parts: nothing to hold a rate to.
  EXPECT_EQ(peak_rates(8, 9, 128, 2520).fp64_tensor, 0);
}

TEST(PublishedPeaks, NominalClockOfTheDataCenterParts) {
  EXPECT_EQ(nominal_sm_clock_mhz(9, 0), 1980);
  EXPECT_EQ(nominal_sm_clock_mhz(8, 0), 1410);
  EXPECT_EQ(nominal_sm_clock_mhz(8, 9), 0);  // no data-center part to speak for it
}

}  // namespace
}  // namespace kb
