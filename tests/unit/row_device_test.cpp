// What a row says of its device's code and peaks: the code the planner chose, read back; a
// computing case on a GPU the peak table lacks holds no roof and says why, where one the table
// knows is held to the peak of its math.
#include "device/device_info.hpp"
#include "store/result_record.hpp"
#include "judge/row_builder.hpp"

#include <gtest/gtest.h>

namespace kb {
namespace {

// A matmul case of 2^40 flops over 2^27 bytes, 1 ms: 1.1 PFLOP/s.
ResultRow matmul_row(const DeviceInfo& device, const std::string& code) {
  auto plugin = std::make_shared<PluginInfo>();
  plugin->name = "matmul/tensor";
  plugin->family = "matmul";
  plugin->device = KB_DEVICE_CUDA;
  plugin->flags = KB_FLAG_MATH_BF16;
  PlannedCase c;
  c.plugin = plugin;
  c.request.dtype = KB_DTYPE_BF16;
  c.request.device = 0;
  c.code = code;
  CaseOutcome outcome;
  outcome.status = CaseStatus::error;  // not judged for plausibility: the roof alone is asked
  outcome.samples = SampleSummary{20, 1000, 999, 1000, 1, 0.001, true};
  outcome.bytes = 134217728;
  outcome.flops = 1099511627776;
  MeasuredBandwidth measured;
  measured.copy_gbps = 6000;
  return build_row({"r", "h", "hot"}, c, &device, measured, outcome);
}

DeviceInfo device_of(int major, int minor, int sms, double clock_mhz) {
  DeviceInfo d;
  d.name = "GPU";
  d.cc_major = major, d.cc_minor = minor;
  d.sm_count = sms;
  d.sm_clock_khz = static_cast<int>(clock_mhz * 1000);
  d.theoretical_gbps = 8000;
  d.peaks = peak_rates(major, minor, sms, clock_mhz);
  return d;
}

TEST(RowDevice, TheCodeThatRanIsTheRowsLastColumnAndReadsBack) {
  const ResultRow row = matmul_row(device_of(10, 0, 148, 1980), "ptx-jit compute_90 (ptx 9.0)");
  EXPECT_EQ(row.cells().back(), "ptx-jit compute_90 (ptx 9.0)");
  EXPECT_EQ(record_of(row).code, "ptx-jit compute_90 (ptx 9.0)");
}

TEST(RowDevice, AKnownGenerationHoldsTheCaseToItsMathsPeak) {
  const ResultRow b200 = matmul_row(device_of(10, 0, 148, 1980), "sm_100");
  EXPECT_EQ(b200.get("peak"), "bf16");
  EXPECT_EQ(b200.get("fraction_of_peak"), "0.4580");  // 1099.5 of 2400.6 TFLOP/s
  EXPECT_EQ(b200.get("message"), "");
}

TEST(RowDevice, AGenerationTheTableLacksGetsNoRoofAndSaysWhy) {
  const ResultRow gb10 = matmul_row(device_of(12, 1, 48, 2500), "sm_120");
  EXPECT_EQ(gb10.get("peak"), "");  // not the copy's either: what bounds the case is unknown
  EXPECT_EQ(gb10.get("fraction_of_peak"), "");
  EXPECT_EQ(gb10.get("message"), "no peak rates for compute capability 12.1 in kbench's table: "
                                 "no fraction of peak, no FLOP/s check");
  EXPECT_FALSE(gb10.get("gflops").empty());  // the rate itself stands
}

}  // namespace
}  // namespace kb
