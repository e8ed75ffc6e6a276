// Nothing lost on a GPU: CUDA plugins that lose their context, never end, ask for 1 TB or have no
// code for the device each become their own row, and the correct plugin's cases all run.
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <map>

namespace {

TEST(IsolationGpu, CudaFaultsBecomeRowsAndTheSweepGoesOn) {
  KBTEST_REQUIRE_GPU();
  const auto run = kbtest::kbench({"run", "--plugins", kbtest::test_plugin_dir("faulty_cuda"),
                                   "--family", "gpu_testing", "--sizes", "1000,2000", "--dtypes",
                                   "int32", "--case-timeout", "10", "--max-time", "0.05"});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  std::map<std::string, std::vector<kbtest::Row>> by_plugin;
  for (const auto& row : run.rows) by_plugin[row.at("plugin")].push_back(row);

  const std::map<std::string, std::pair<std::string, std::string>> expected = {
      {"gpu_testing/none", {"ok", ""}},
      {"gpu_testing/illegal_address", {"crashed", "CUDA context lost"}},
      {"gpu_testing/endless_kernel", {"timeout", "no result after 10"}},
      {"gpu_testing/huge_alloc", {"oom", "cudaErrorMemoryAllocation"}},
      {"gpu_testing/wrong_arch", {"unsupported", "built for sm_80"}},
  };
  ASSERT_EQ(by_plugin.size(), expected.size()) << run.output;
  for (const auto& [plugin, outcome] : expected) {
    ASSERT_EQ(by_plugin[plugin].size(), 2u) << plugin << "\n" << run.output;
    for (const auto& row : by_plugin[plugin]) {
      EXPECT_EQ(row.at("status"), outcome.first) << plugin << ": " << row.at("message");
      EXPECT_NE(row.at("message").find(outcome.second), std::string::npos)
          << plugin << ": " << row.at("message");
    }
  }
  EXPECT_EQ(by_plugin["gpu_testing/none"][0].at("max_rel_error"), "0");
}

TEST(IsolationGpu, ListShowsTheArchitecturesAPluginWasBuiltFor) {
  const auto run = kbtest::kbench({"list", "--plugins", kbtest::test_plugin_dir("faulty_cuda")});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.output.find("| gpu_testing/wrong_arch | cuda | int32 |  | own |  | 1 | sm_80 |"),
            std::string::npos)
      << run.output;
}

}  // namespace
