// What a row says of its device's code and peaks: the code the planner chose, read back; a
// computing case on a GPU the peak table lacks holds no roof and says why, where one the table
// knows is held to the peak of its math; and a planned case's cells are its row's.
#include "device/device_info.hpp"
#include "store/case_key.hpp"
#include "store/result_record.hpp"
#include "judge/row_builder.hpp"

#include <gtest/gtest.h>

#include <optional>

namespace kb {
namespace {

// A matmul case of 2^40 flops over 2^27 bytes, 1 ms: 1.1 PFLOP/s; `cupti` as the fourth clock saw
// it, where given.
ResultCells matmul_row(const DeviceInfo& device, const std::string& code,
                       std::optional<CuptiFigures> cupti = std::nullopt) {
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
  outcome.cupti = std::move(cupti);
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

TEST(RowDevice, TheCodeThatRanIsWrittenInItsColumnAndReadsBack) {
  const ResultCells row = matmul_row(device_of(10, 0, 148, 1980), "ptx-jit compute_90 (ptx 9.0)");
  EXPECT_EQ(row.code, "ptx-jit compute_90 (ptx 9.0)");
  EXPECT_EQ(cells_in_order(row)[column_of("code")], "ptx-jit compute_90 (ptx 9.0)");
  EXPECT_EQ(record_of(row).code, "ptx-jit compute_90 (ptx 9.0)");
}

TEST(RowDevice, TheKernelsALaunchRanAreTheRowsLastColumnAndReadBack) {
  CuptiFigures cupti;
  cupti.us = 900;
  cupti.operations = 2;
  cupti.kernels = "gemm_tile<float, 128> x1; cutlass::Kernel2<sm90_xmma> [cuBLAS] x1";
  const ResultCells row = matmul_row(device_of(9, 0, 132, 1980), "sm_90", cupti);
  EXPECT_EQ(row.kernels, cupti.kernels);
  EXPECT_EQ(cells_in_order(row).back(), cupti.kernels);
  EXPECT_EQ(record_of(row).kernels, cupti.kernels);
  EXPECT_EQ(matmul_row(device_of(9, 0, 132, 1980), "sm_90").kernels, "");
}

TEST(RowDevice, AKnownGenerationHoldsTheCaseToItsMathsPeak) {
  const ResultCells b200 = matmul_row(device_of(10, 0, 148, 1980), "sm_100");
  EXPECT_EQ(b200.peak, "bf16");
  EXPECT_EQ(b200.fraction_of_peak, "0.4580");  // 1099.5 of 2400.6 TFLOP/s
  EXPECT_EQ(b200.message, "");
}

TEST(RowDevice, AGenerationTheTableLacksGetsNoRoofAndSaysWhy) {
  const ResultCells gb10 = matmul_row(device_of(12, 1, 48, 2500), "sm_120");
  EXPECT_EQ(gb10.peak, "");  // not the copy's either: what bounds the case is unknown
  EXPECT_EQ(gb10.fraction_of_peak, "");
  EXPECT_EQ(gb10.message, "no peak rates for compute capability 12.1 in kbench's table: "
                                 "no fraction of peak, no FLOP/s check");
  EXPECT_FALSE(gb10.gflops.empty());  // the rate itself stands
}

// --resume and tune find a planned case's rows by the cells planned_cells gives: the same cells
// as the row its run writes, whatever the outcome and the device.
TEST(RowDevice, APlannedCaseHasTheKeyAndCellsOfTheRowItsRunWrites) {
  auto plugin = std::make_shared<PluginInfo>();
  plugin->name = "transpose/tiled";
  plugin->version = "3";
  plugin->family = "transpose";
  plugin->device = KB_DEVICE_CUDA;
  PlannedCase c;
  c.plugin = plugin;
  c.request.dtype = KB_DTYPE_F64;
  c.request.device = 1;
  c.request.op = "op";
  c.request.shape = parse_sizes("8192x4096").front();
  c.request.block = parse_blocks("32x8").front();
  c.request.params = "tile=64";
  c.request.seed = 7;
  c.repetition = 2;
  c.code = "sm_90";
  CaseOutcome outcome;
  outcome.status = CaseStatus::ok;
  outcome.samples = SampleSummary{20, 1000, 999, 1000, 1, 0.001, true};
  const RunContext run{"night", "h", "cold"};
  const ResultCells planned = planned_cells(run, c);
  const ResultRecord written =
      record_of(build_row(run, c, nullptr, MeasuredBandwidth{}, outcome));
  for (const bool any_device : {false, true}) {
    EXPECT_TRUE(CaseKey(planned, any_device) == CaseKey(written, any_device));
  }
  for (const CaseColumn column : kCaseInRun.list()) {
    EXPECT_EQ(case_cell(planned, column), written.cell(column).str()) << column_name(column);
  }
  EXPECT_EQ(planned.shape, "8192x4096");
  EXPECT_EQ(planned.repetition, "2");
  EXPECT_EQ(planned.run_id, "night");
  EXPECT_EQ(planned.code, written.code);
}

}  // namespace
}  // namespace kb
