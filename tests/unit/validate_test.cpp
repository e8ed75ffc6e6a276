// `kbench validate`: the referee it names, a family library validated on its own, and the
// compute-sanitizer step (memcheck, racecheck) where the tool and a device are present, with one
// line saying why not where they are not. The reading of the tool's output is tested on its text.
#include "support/kbench_process.hpp"
#include "util/sanitizer_report.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

namespace {

using kbtest::kbench;

std::string built_plugin(const std::string& file) {
  return (boost::filesystem::path(KBENCH_EXE).parent_path() / ".." / "lib" / "kbench" /
          "plugins" / file)
      .lexically_normal()
      .string();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Sets an environment variable for the scope (the kbench the test starts inherits it).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { old_.empty() ? unsetenv(name_) : setenv(name_, old_.c_str(), 1); }

 private:
  const char* name_;
  std::string old_;
};

// A stand-in for compute-sanitizer that prints what the real one prints for one error.
std::string fake_sanitizer(const kbtest::TempFolder& folder) {
  const std::string path = folder.file("compute-sanitizer");
  std::ofstream(path) << "#!/bin/sh\n"
                         "echo '========= COMPUTE-SANITIZER'\n"
                         "echo '========= Invalid __global__ write of size 4 bytes'\n"
                         "echo '=========     at fake_kernel(int *)+0x70'\n"
                         "echo '========= ERROR SUMMARY: 1 error'\n";
  boost::filesystem::permissions(path, boost::filesystem::owner_all);
  return path;
}

// ---- the tool's text ---------------------------------------------------------------------------

TEST(ValidateSanitizerReport, ACleanMemcheckRunOverSeveralProcessesHasNoErrors) {
  const auto found = kb::read_sanitizer_output(
      "========= COMPUTE-SANITIZER\n"
      "kbench: run validate: 1 cases from 1 plugins on 1 lane(s)\n"
      "| plugin | dtype |\n"
      "========= ERROR SUMMARY: 0 errors\n"
      "========= COMPUTE-SANITIZER\n"
      "========= ERROR SUMMARY: 0 errors\n");
  EXPECT_TRUE(found.summarized);
  EXPECT_EQ(found.errors, 0u);
  EXPECT_EQ(found.first_error, "");
}

TEST(ValidateSanitizerReport, MemcheckErrorsAreSummedOverProcessesAndTheFirstIsNamed) {
  const auto found = kb::read_sanitizer_output(
      "========= COMPUTE-SANITIZER\n"
      "========= ERROR SUMMARY: 0 errors\n"
      "========= Invalid __global__ write of size 4 bytes\n"
      "=========     at 0x70 in /tmp/mine.cu:12:mine_kernel(const int *, int *, long long)\n"
      "=========     by thread (32,0,0) in block (0,0,0)\n"
      "=========     Address 0x7f10 is out of bounds\n"
      "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
      "========= Invalid __global__ write of size 4 bytes\n"
      "=========     at 0x70 in /tmp/mine.cu:12:mine_kernel(const int *, int *, long long)\n"
      "========= \n"
      "========= ERROR SUMMARY: 2 errors\n");
  EXPECT_TRUE(found.summarized);
  EXPECT_EQ(found.errors, 2u);
  EXPECT_EQ(found.first_error, "Invalid __global__ write of size 4 bytes");
}

TEST(ValidateSanitizerReport, RacecheckHazardsAreErrorsAndWarningsAreNot) {
  const auto race = kb::read_sanitizer_output(
      "========= COMPUTE-SANITIZER\n"
      "========= Warning: Race reported between Write access at tile+0x10 and Read access\n"
      "========= Error: Race reported between Write access at 0x1f0 in tile_sums<int, 4>\n"
      "=========     and Read access at 0x1a0 in tile_sums<int, 4> [2 hazards]\n"
      "========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)\n");
  EXPECT_TRUE(race.summarized);
  EXPECT_EQ(race.errors, 1u);
  EXPECT_EQ(race.first_error,
            "Error: Race reported between Write access at 0x1f0 in tile_sums<int, 4>");

  const auto warnings_only = kb::read_sanitizer_output(
      "========= Warning: Race reported between Write access and Read access\n"
      "========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)\n"
      "========= ERROR SUMMARY: 0 errors\n");
  EXPECT_EQ(warnings_only.errors, 0u);
  EXPECT_EQ(warnings_only.first_error, "");
}

TEST(ValidateSanitizerReport, TextWithoutASummaryIsNotAVerdict) {
  const auto found = kb::read_sanitizer_output(
      "========= COMPUTE-SANITIZER\n"
      "========= Error: Target application terminated before first instrumented API call\n");
  EXPECT_FALSE(found.summarized);
  EXPECT_EQ(found.errors, 0u);
}

TEST(ValidateSanitizerReport, TheToolIsLookedForWhereKbenchIsToldFirst) {
  const kbtest::TempFolder folder;
  const std::string fake = fake_sanitizer(folder);
  {
    const ScopedEnv forced("KBENCH_COMPUTE_SANITIZER", fake);
    std::string looked;
    EXPECT_EQ(kb::find_compute_sanitizer(looked), fake);
  }
  {
    const ScopedEnv forced("KBENCH_COMPUTE_SANITIZER", folder.file("absent"));
    std::string looked;
    EXPECT_EQ(kb::find_compute_sanitizer(looked), "");
    EXPECT_TRUE(contains(looked, "KBENCH_COMPUTE_SANITIZER=")) << looked;
  }
  {
    const ScopedEnv path("PATH", folder.path().string() + ":/usr/bin:/bin");
    std::string looked;
    EXPECT_EQ(kb::find_compute_sanitizer(looked), fake);
  }
}

// ---- the command -------------------------------------------------------------------------------

TEST(Validate, AVersion3StrategyNamesItsFamilysLibraryAsItsReferee) {
  const auto run = kbench({"validate", built_plugin("transpose_naive_row.so")});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "referee: the transpose family's library (version ")) << run.output;
  EXPECT_TRUE(contains(run.output, "transpose_family.so)")) << run.output;
}

TEST(Validate, AVersion2PluginIsItsOwnReferee) {
  const auto run = kbench({"validate", kbtest::test_plugin_dir("faulty") + "/kbt_fault_free.so"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "referee: the plugin itself (ABI version 2)")) << run.output;
  EXPECT_TRUE(contains(run.output, "valid: ")) << run.output;
}

TEST(Validate, AFamilyLibrarySaysWhatItDescribesAndReferees) {
  const auto run = kbench({"validate", built_plugin("reduce_family.so")});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "loaded the referee of family reduce (version ")) << run.output;
  EXPECT_TRUE(contains(run.output, "small case 1000 x 256,32x8")) << run.output;
  EXPECT_TRUE(contains(run.output, "valid: a family library; it referees ")) << run.output;
  EXPECT_TRUE(contains(run.output, "reduce/cpu")) << run.output;
}

TEST(Validate, AHostPluginIsNotRunUnderComputeSanitizer) {
  const auto run = kbench({"validate", built_plugin("transpose_cpu.so")});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "valid: 6 of 6 small cases ran and verified")) << run.output;
  EXPECT_TRUE(contains(run.output, "compute-sanitizer: not run: a host plugin has no kernels"))
      << run.output;
}

TEST(Validate, WithoutComputeSanitizerOneLineSaysSo) {
  if (kbtest::cuda_device_present()) {
    GTEST_SKIP() << "a CUDA device is present: the no-device line cannot show";
  }
  const kbtest::TempFolder folder;
  const ScopedEnv forced("KBENCH_COMPUTE_SANITIZER", folder.file("absent"));
  const auto run = kbench({"validate", built_plugin("transpose_naive_row.so")});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "ABI and metadata valid; no CUDA device here")) << run.output;
  EXPECT_TRUE(contains(run.output, "compute-sanitizer: not installed (looked in "
                                   "KBENCH_COMPUTE_SANITIZER=" + folder.file("absent") +
                                   "), and no CUDA device here: memcheck and racecheck not run"))
      << run.output;
  EXPECT_EQ(kbtest::count_lines(run.output), 4) << run.output;
}

TEST(Validate, WithComputeSanitizerButNoDeviceOneLineSaysSo) {
  if (kbtest::cuda_device_present()) {
    GTEST_SKIP() << "a CUDA device is present: the no-device line cannot show";
  }
  const kbtest::TempFolder folder;
  const std::string fake = fake_sanitizer(folder);
  const ScopedEnv path("PATH", folder.path().string() + ":" + std::getenv("PATH"));
  const auto run = kbench({"validate", built_plugin("reduce_cub.so")});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "compute-sanitizer: " + fake +
                                       " found, but no CUDA device here: memcheck and racecheck "
                                       "not run"))
      << run.output;

  const auto skipped = kbench({"validate", built_plugin("reduce_cub.so"), "--no-sanitizer"});
  EXPECT_EQ(skipped.exit_code, 0) << skipped.output;
  EXPECT_FALSE(contains(skipped.output, "compute-sanitizer")) << skipped.output;
}

// On a GPU: what the tool reports as an error fails a plugin whose cases verified.
TEST(Validate, AnErrorComputeSanitizerReportsFailsTheValidation) {
  KBTEST_REQUIRE_GPU();
  const kbtest::TempFolder folder;
  const ScopedEnv forced("KBENCH_COMPUTE_SANITIZER", fake_sanitizer(folder));
  const auto run = kbench({"validate", built_plugin("transpose_naive_row.so")});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_TRUE(contains(run.output, "memcheck: 1 error in transpose/naive_row ")) << run.output;
  EXPECT_TRUE(contains(run.output, "the first: Invalid __global__ write of size 4 bytes"))
      << run.output;
  EXPECT_TRUE(contains(run.output, "invalid: compute-sanitizer found errors")) << run.output;
}

}  // namespace
