// Every plugin timed the same way: plugins written against plugin.h alone, lazily loaded, keep
// the held stream as in-tree ones do; a launch that waits for the device loses it for its own case
// only, with the reason in the row; a launch that works outside its stream, or a verify that
// passes nothing, never gets an `ok` row.
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

namespace {

using kbtest::kbench;
using kbtest::Row;

std::vector<std::string> header_only(const std::string& plugin, const std::string& sizes) {
  return {"run",     "--plugins", kbtest::test_plugin_dir("header_only"), "--plugin",
          plugin,    "--sizes",   sizes, "--dtypes", "float32", "--max-time", "0.3"};
}

double cell(const Row& row, const char* column) { return std::stod(row.at(column)); }

TEST(TimingGpu, ALazilyLoadedPluginFromTheHeaderAloneKeepsTheHeldStream) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbench(header_only("header_only/none", "2^16,2^24,2^26"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 3u) << run.output;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("status"), "ok") << row.at("message");
    EXPECT_EQ(row.at("timing"), "held") << row.at("message");
    EXPECT_EQ(row.at("message"), "");
    EXPECT_GT(cell(row, "host_us"), cell(row, "median_us"));
    if (cell(row, "median_us") >= 20) {
      EXPECT_NEAR(cell(row, "batch_us") / cell(row, "median_us"), 1.0, 0.03) << row.at("shape");
    }
  }
}

TEST(TimingGpu, LazyAndEagerModuleLoadingTimeTheSame) {
  KBTEST_REQUIRE_GPU();
  std::map<std::string, double> median;
  for (const char* mode : {"LAZY", "EAGER"}) {
    setenv("CUDA_MODULE_LOADING", mode, 1);
    const auto run = kbench(header_only("header_only/none", "2^24,2^26"));
    ASSERT_EQ(run.exit_code, 0) << mode << "\n" << run.output;
    for (const auto& row : run.rows) {
      EXPECT_EQ(row.at("timing"), "held") << mode;
      median[std::string(mode) + row.at("shape")] = cell(row, "median_us");
    }
  }
  unsetenv("CUDA_MODULE_LOADING");
  for (const char* shape : {"16777216", "67108864"}) {
    EXPECT_NEAR(median[std::string("LAZY") + shape] / median[std::string("EAGER") + shape], 1.0,
                0.03)
        << shape;
  }
}

TEST(TimingGpu, ALaunchOnAStreamOfItsOwnIsImplausible) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbench(header_only("header_only/own_stream", "2^16,2^26"));
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ASSERT_EQ(run.rows.size(), 2u) << run.output;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("status"), "implausible") << row.at("shape");
    EXPECT_NE(row.at("message").find("stream check"), std::string::npos) << row.at("message");
  }
  EXPECT_NE(run.output.find("2 implausible"), std::string::npos) << run.output;
}

TEST(TimingGpu, VerifyReturningOkWithPassedZeroIsAFailedVerification) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbench(header_only("header_only/passed_zero", "2^16"));
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ASSERT_EQ(run.rows.size(), 1u) << run.output;
  EXPECT_EQ(run.rows[0].at("status"), "verify_failed");
  EXPECT_NE(run.rows[0].at("message").find("passed = 0"), std::string::npos);
}

TEST(TimingGpu, ALaunchThatWaitsForTheDeviceLosesTheHoldForItsOwnCaseOnly) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbench(header_only("header_only/synchronizes", "2^16,2^20"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 2u) << run.output;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("status"), "ok") << row.at("message");
    EXPECT_EQ(row.at("timing"), "plain");
    EXPECT_NE(row.at("message").find("waited for the device while the stream was held"),
              std::string::npos)
        << row.at("message");
  }
}

TEST(TimingGpu, VendorLibrariesKeepTheHeldStreamAndTensorCoresMeetTheirOwnPeak) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbench({"run", "--plugin", "transpose/cublas", "--plugin", "matmul/cublas_tf32",
                           "--plugin", "matmul/cublas", "--sizes", "2048", "--dtypes", "float32",
                           "--max-time", "0.3"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::map<std::string, Row> by_plugin;
  for (const auto& row : run.rows) by_plugin[row.at("plugin")] = row;
  ASSERT_EQ(by_plugin.size(), 3u) << run.output;
  for (const auto& [plugin, row] : by_plugin) {
    EXPECT_EQ(row.at("status"), "ok") << plugin << ": " << row.at("message");
    EXPECT_EQ(row.at("timing"), "held") << plugin << ": " << row.at("message");
  }
  EXPECT_EQ(by_plugin["matmul/cublas_tf32"].at("peak"), "tf32");
  EXPECT_EQ(by_plugin["matmul/cublas"].at("peak"), "fp32");
  EXPECT_LT(cell(by_plugin["matmul/cublas_tf32"], "fraction_of_peak"), 1.0);
  EXPECT_EQ(by_plugin["transpose/cublas"].at("peak"), "copy");
}

// cuBLAS's DGEMM runs on the FP64 tensor cores where a GPU has them, near twice the CUDA cores'
// FP64 peak: held to that peak it is `ok`, not `implausible` (as it was on the H100 at 1.82 of
// the SIMT peak), while the SIMT plugin keeps its own.
TEST(TimingGpu, DoublePrecisionOnTheTensorCoresIsHeldToTheirPeak) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbench({"run", "--plugin", "matmul/cublas", "--plugin", "matmul/regblock",
                           "--sizes", "2048", "--dtypes", "float64", "--max-time", "0.3"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::map<std::string, Row> by_plugin;
  for (const auto& row : run.rows) by_plugin[row.at("plugin")] = row;
  ASSERT_EQ(by_plugin.size(), 2u) << run.output;
  for (const auto& [plugin, row] : by_plugin) {
    EXPECT_EQ(row.at("status"), "ok") << plugin << ": " << row.at("message");
    EXPECT_LT(cell(row, "fraction_of_peak"), 1.0) << plugin;
  }
  EXPECT_EQ(by_plugin["matmul/cublas"].at("peak"), "fp64_tensor");
  EXPECT_EQ(by_plugin["matmul/regblock"].at("peak"), "fp64");
}

TEST(TimingGpu, AnEnergyWindowReadsTheBoardsPowerAndEnergyPerLaunch) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbench({"run", "--plugin", "matmul/cublas", "--sizes", "2048", "--dtypes",
                           "float32", "--max-time", "0.2", "--energy-window", "1"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 1u) << run.output;
  const Row& row = run.rows[0];
  if (row.at("power_w").empty()) GTEST_SKIP() << "no NVML energy counter: " << row.at("message");
  // A busy Hopper board: well above its idle draw (about 70 W), below any board's limit.
  EXPECT_GT(cell(row, "power_w"), 100) << row.at("message");
  EXPECT_LT(cell(row, "power_w"), 1000);
  EXPECT_NEAR(cell(row, "energy_j"), cell(row, "power_w") * cell(row, "batch_us") * 1e-6,
              1e-3 * cell(row, "energy_j"));
  EXPECT_NEAR(cell(row, "gflop_per_j"), 2 * 2048.0 * 2048 * 2048 / 1e9 / cell(row, "energy_j"),
              0.01 * cell(row, "gflop_per_j"));
}

}  // namespace
