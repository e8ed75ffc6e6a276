// `--metrics` and `--no-cupti` through the built `kbench`: a bad counter is one line and exit 2
// before anything runs, a good list passes on to the workers, and without a CUDA device (or
// without CUPTI) the run says so once and still runs everything else, its CUPTI columns empty.
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace {

using kbtest::kbench;

std::vector<std::string> host_case(std::vector<std::string> extra) {
  std::vector<std::string> args = {"run", "--plugin", "transpose/cpu", "--sizes", "64",
                                   "--dtypes", "float32", "--min-time", "0", "--max-time", "0.05"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(CuptiOptions, AnUnknownCounterIsOneLineAndExitTwo) {
  for (const auto& [list, expected] : std::vector<std::pair<std::string, std::string>>{
           {"memroy", "unknown counter 'memroy'"},
           {"memory,,shared", "holds an empty name"},
           {"dram_bytes", "unknown counter 'dram_bytes'"},
           {"DRAM__bytes_read.sum", "unknown counter 'DRAM__bytes_read.sum'"}}) {
    const auto run = kbench(host_case({"--metrics", list}));
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
    EXPECT_NE(run.output.find("--metrics"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find(expected), std::string::npos) << run.output;
    EXPECT_TRUE(run.rows.empty());
  }
  const auto run = kbench(host_case({"--metrics", "memory", "--profile"}));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("cannot be combined with --profile"), std::string::npos) << run.output;
}

TEST(CuptiOptions, NamedSetsShortNamesAndMetricNamesRunAndTheColumnsStayEmptyOnTheHost) {
  const auto run = kbench(
      host_case({"--metrics", "memory,shared_load_bank_conflicts,sm__warps_active.avg.pct_of_peak_sustained_active"}));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 1u) << run.output;
  // A host plugin has no kernels: no fourth clock, no counters.
  EXPECT_EQ(run.rows[0].at("status"), "ok");
  EXPECT_EQ(run.rows[0].at("cupti_us"), "");
  EXPECT_EQ(run.rows[0].at("cupti_kernels"), "");
  EXPECT_EQ(run.rows[0].at("counters"), "");
}

TEST(CuptiOptions, WithoutADeviceMetricsSayWhyInOneLine) {
  if (kbtest::cuda_device_present()) GTEST_SKIP() << "a CUDA device is present";
  const auto run = kbench(host_case({"--metrics", "default"}));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::size_t said = 0;
  for (std::size_t at = run.output.find("--metrics: no CUDA device"); at != std::string::npos;
       at = run.output.find("--metrics: no CUDA device", at + 1)) {
    ++said;
  }
  EXPECT_EQ(said, 1u) << run.output;
  EXPECT_NE(run.output.find("the counters column stays empty"), std::string::npos) << run.output;
  ASSERT_EQ(run.rows.size(), 1u);
  EXPECT_EQ(run.rows[0].at("status"), "ok");
}

TEST(CuptiOptions, AConfigFileNamesTheCountersAndNoCuptiIsAccepted) {
  kbtest::TempFolder folder;
  {
    std::ofstream config(folder.file("metrics.ini"));
    config << "metrics = memory\nno-cupti = true\n";
  }
  auto run = kbench(host_case({"--config", folder.file("metrics.ini")}));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  {
    std::ofstream config(folder.file("bad.ini"));
    config << "metrics = memory,bogus\n";
  }
  run = kbench(host_case({"--config", folder.file("bad.ini")}));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("unknown counter 'bogus'"), std::string::npos) << run.output;
  run = kbench(host_case({"--no-cupti"}));
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

}  // namespace
