// Every request is run or refused, never silently changed. A value that is empty, NaN,
// infinite, out of range, duplicated or unknown is one line naming it and exit 2, with no row
// written; an empty plan is said in one line, never a division by zero.
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

namespace {

using kbtest::kbench;
namespace fs = boost::filesystem;

struct Refused {
  std::vector<std::string> args;
  std::string expected;
};

TEST(InputRules, EveryBadValueIsOneLineNamingItAndNoRow) {
  const std::string folder = fs::temp_directory_path().string();
  const std::vector<Refused> cases = {
      {{"--case-timeout", "nan"}, "--case-timeout nan"},
      {{"--case-timeout", "inf"}, "--case-timeout inf"},
      {{"--case-timeout", "1e7"}, "--case-timeout 1e+07"},
      {{"--case-timeout", "0"}, "--case-timeout 0"},
      {{"--case-timeout", "-1"}, "--case-timeout -1"},
      {{"--max-time", "nan"}, "--max-time nan"},
      {{"--max-time", "-inf"}, "--max-time -inf"},
      {{"--max-time", "0"}, "--max-time 0"},
      {{"--min-time", "-1"}, "--min-time -1"},
      {{"--min-time", "inf"}, "--min-time inf"},
      {{"--min-time", "2", "--max-time", "1"}, "--min-time 2 exceeds --max-time 1"},
      {{"--max-noise", "0"}, "--max-noise 0"},
      {{"--max-noise", "nan"}, "--max-noise nan"},
      {{"--max-noise", "2"}, "--max-noise 2"},
      {{"--min-samples", "-1"}, "--min-samples '-1'"},
      {{"--min-samples", "0"}, "--min-samples '0'"},
      {{"--min-samples", "1e3"}, "--min-samples '1e3'"},
      {{"--seed", "-1"}, "--seed '-1'"},
      {{"--seed", "1.5"}, "--seed '1.5'"},
      {{"--seed", "18446744073709551616"}, "--seed '18446744073709551616'"},
      {{"--shard", "1/0"}, "malformed shard '1/0'"},
      {{"--shard", "-1/3"}, "malformed shard '-1/3'"},
      {{"--shard", "3/3"}, "malformed shard '3/3'"},
      {{"--shard", ""}, "--shard is empty"},
      {{"--sizes", ""}, "--sizes: empty size list"},
      {{"--sizes", "16,"}, "--sizes: empty size in the list '16,'"},
      {{"--sizes", "2^62+2^62+2^62+2^62+5"}, "--sizes: malformed size '2^62+2^62+2^62+2^62+5'"},
      {{"--sizes", "2^40x2^40"}, "--sizes: size '2^40x2^40' is too large"},
      {{"--sizes", "16,16x16"}, "the case 'transpose/cpu float32 16x16 -' is asked for twice"},
      {{"--dtypes", ","}, "--dtypes: empty data type in the list ','"},
      {{"--dtypes", "int32,int32"}, "--dtypes: data type int32 given twice"},
      {{"--dtypes", "int32,i32"}, "--dtypes: data type int32 given twice"},
      {{"--blocks", ""}, "--blocks: empty block list"},
      {{"--ops", ""}, "--ops: empty operation list"},
      {{"--ops", "sum"}, "unknown operation 'sum'"},
      {{"--devices", ""}, "--devices is empty"},
      {{"--devices", "0,0"}, "device 0 given twice"},
      {{"--devices", "-1"}, "malformed device '-1'"},
      {{"--family", ""}, "--family: empty family list"},
      {{"--plugin", ""}, "--plugin: empty plugin glob list"},
      {{"--plugin", "transpose/cpu"}, "--plugin: plugin glob 'transpose/cpu' given twice"},
      {{"--run-id", ""}, "--run-id is empty"},
      {{"--run-id", "two\nlines"}, "--run-id must be one line"},
      {{"--run-id", "bad\xff"}, "--run-id must be one line"},
      {{"--samples-out", ""}, "--samples-out is empty"},
      {{"--config", folder}, "cannot read config file '" + folder + "': not a regular file"},
      {{"--case", "transpose/cpu int32 16"}, "--case names whole cases: it cannot be combined with --plugin"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"run", "--plugin", "transpose/cpu"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto run = kbench(args);
    EXPECT_EQ(run.exit_code, 2) << c.expected << "\n" << run.output;
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
    EXPECT_NE(run.output.find(c.expected), std::string::npos) << c.expected << "\n" << run.output;
    EXPECT_TRUE(run.rows.empty()) << c.expected;
  }
}

TEST(InputRules, ExplicitCasesAreRefusedWithSweepOptionsAndWhenRepeated) {
  for (const auto& extra : std::vector<std::vector<std::string>>{
           {"--sizes", "16"}, {"--dtypes", "int32"}, {"--family", "transpose"}, {"--zip"}}) {
    std::vector<std::string> args = {"run", "--case", "transpose/cpu int32 16"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto run = kbench(args);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find("--case names whole cases"), std::string::npos) << run.output;
  }
  auto run = kbench({"run", "--case", "transpose/cpu int32 16", "--case", "transpose/cpu int32 16x16"});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("the case 'transpose/cpu int32 16x16 -' is asked for twice"),
            std::string::npos)
      << run.output;
  run = kbench({"run", "--case", "reduce/cpu int32 16 - bogus"});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("reduce/cpu has no operation 'bogus' (it offers sum,sumsq)"),
            std::string::npos)
      << run.output;
}

// A block named in a --case for a plugin that chooses its own launch shape was dropped: the row
// said block '-' and the case asked for ran as another. Refused; '-' (before an op) stands.
TEST(InputRules, AnExplicitCaseGivesNoBlockToAPluginThatChoosesItsOwn) {
  const kbtest::TempFolder folder;
  const std::string csv = folder.file("results.csv");
  const auto run = kbench({"run", "--case", "transpose/cpu float32 64 32x8"}, csv);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("kbench: error: case 'transpose/cpu float32 64 32x8': transpose/cpu "
                            "chooses its own launch shape; give no block (or '-' before an "
                            "operation)\n"),
            std::string::npos)
      << run.output;
  EXPECT_TRUE(run.rows.empty());
  const auto dash = kbench({"run", "--case", "reduce/cpu int32 16 - sumsq", "--max-time", "0.01"});
  EXPECT_EQ(dash.exit_code, 0) << dash.output;
  ASSERT_EQ(dash.rows.size(), 1u) << dash.csv_error;
  EXPECT_EQ(dash.rows[0].at("op"), "sumsq");
}

// The same for a sweep: --blocks where every plugin selected chooses its own launch shape ran with
// '-' in every row, exit 0. (Beside a plugin that takes blocks, the others run once per shape.)
TEST(InputRules, BlocksForPluginsThatAllChooseTheirOwnAreRefused) {
  const kbtest::TempFolder folder;
  const std::string csv = folder.file("results.csv");
  auto run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "64", "--blocks", "32x8"}, csv);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
  EXPECT_NE(run.output.find("kbench: error: --blocks 32x8: no plugin selected takes a block (each "
                            "chooses its own launch shape)"),
            std::string::npos)
      << run.output;
  EXPECT_TRUE(run.rows.empty());
}

// A `config = other.ini` line in a config file was ignored, and the whole default sweep ran.
TEST(InputRules, AConfigFileNamingAnotherConfigFileIsRefused) {
  const kbtest::TempFolder folder;
  const std::string inner = folder.file("inner.ini"), outer = folder.file("outer.ini");
  std::ofstream(inner) << "plugin = transpose/cpu\nsizes = 16\n";
  std::ofstream(outer) << "config = " << inner << "\n";
  const std::string expected = "kbench: error: config file '" + outer +
                               "': 'config' cannot be set in a config file (one file does not "
                               "include another)\n";
  auto run = kbench({"run", "--config", outer});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_EQ(run.output, expected);
  EXPECT_TRUE(run.rows.empty());
  run = kbench({"compare", "--config", outer, folder.file("results.csv"), "--by", "run"});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_EQ(run.output, expected);
}

// An empty plan, and --devices all --split without a GPU, are one line each, never a signal
// (a division by zero, an empty device list).
TEST(InputRules, AnEmptyPlanIsOneLineNeverASignal) {
  auto run = kbench({"run", "--plugin", "reduce/cpu", "--sizes", "100", "--ops", "bogus"});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("unknown operation 'bogus': no plugin selected offers it"),
            std::string::npos)
      << run.output;

  // An empty shard is legitimate in a job array with more tasks than cases.
  run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "16", "--dtypes", "int32,float32",
                "--shard", "5/10"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("shard 5/10 of this 2-case plan is empty: nothing to run"),
            std::string::npos)
      << run.output;
  EXPECT_TRUE(run.rows.empty());

  run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "16", "--dtypes", "int32",
                "--shard", "0/18446744073709551615", "--max-time", "0.01"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.rows.size(), 1u) << run.output;

  run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "16", "--dtypes", "int32",
                "--devices", "all", "--split", "--max-time", "0.01"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.rows.size(), 1u) << run.output;
}

// Every size the parent plans, the worker takes (one parser, one set of limits): a size past them
// is refused in one line, and one within them reaches the plugin, whose row says its own limit.
TEST(InputRules, TheWorkerTakesEverySizeTheParentPlanned) {
  auto run = kbench({"run", "--plugins", kbtest::test_plugin_dir("faulty"), "--plugin",
                     "testing/good", "--sizes", "10^18,9223372036854775807", "--dtypes", "int32"});
  EXPECT_EQ(run.exit_code, 2) << run.output;  // 2^63 - 1 elements: too many
  EXPECT_NE(run.output.find("size '9223372036854775807' is too large"), std::string::npos)
      << run.output;
  run = kbench({"run", "--plugins", kbtest::test_plugin_dir("faulty"), "--plugin", "testing/good",
                "--sizes", "10^18", "--dtypes", "int32"});
  ASSERT_EQ(run.rows.size(), 1u) << run.output;
  EXPECT_EQ(run.rows[0].at("shape"), "1000000000000000000");
  EXPECT_EQ(run.rows[0].at("status"), "unsupported");  // the plugin's own limit, in its words
  EXPECT_NE(run.rows[0].at("message").find("at most 10^6 elements"), std::string::npos);

  // 2^59 elements pass the parser; the plugin cannot allocate them: a row, never a parent crash
  // nor a protocol error.
  run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "2^30x2^29", "--dtypes", "int32",
                "--case-timeout", "60"});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ASSERT_EQ(run.rows.size(), 1u) << run.output;
  EXPECT_NE(run.rows[0].at("status"), "ok");
  EXPECT_EQ(run.rows[0].at("message").find("protocol"), std::string::npos) << run.rows[0].at("message");
}

// --repetitions 1000000000 was taken, and the plan grew until memory ran out.
TEST(InputRules, ARunOfMoreCasesThanOneRunTakesIsRefusedBeforeItIsPlanned) {
  for (const auto& [args, expected] : std::vector<Refused>{
           {{"--repetitions", "1000000000"}, "--repetitions 1000000000: must be a whole number from 1 to 1000"},
           {{"--repetitions", "1001"}, "--repetitions 1001"},
           {{"--repetitions", "0"}, "--repetitions 0"}}) {
    std::vector<std::string> all = {"run", "--plugin", "transpose/cpu"};
    all.insert(all.end(), args.begin(), args.end());
    const auto run = kbench(all);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
    EXPECT_NE(run.output.find(expected), std::string::npos) << run.output;
  }
  // Within the limit, but a plan of 2000 cases times 1000 is two million.
  std::string sizes;
  for (int i = 1; i <= 2000; ++i) sizes += (i > 1 ? "," : "") + std::to_string(i);
  const auto run = kbench({"run", "--plugins", kbtest::test_plugin_dir("faulty"), "--plugin",
                           "testing/good", "--dtypes", "int32", "--sizes", sizes,
                           "--repetitions", "1000", "--no-hidden-shapes"});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("the plan holds 2000 cases, times 1000 repetitions: more than the "
                            "1000000 cases one run takes"),
            std::string::npos)
      << run.output;
  EXPECT_TRUE(run.rows.empty());
}

// One plugin of a family no plugin describes, dropped into --plugins, refused the whole
// default sweep ("has no default sizes"). It is skipped, said in one line, and the rest runs.
TEST(InputRules, APluginOfAnUndescribedFamilyIsSkippedFromTheDefaultSweep) {
  // tuning/model describes its family (one default size); testing/good's family is described
  // by no plugin.
  auto run = kbench({"run", "--plugins", kbtest::test_plugin_dir("faulty"), "--plugins",
                     kbtest::test_plugin_dir("tuning"), "--plugin", "tuning/model", "--plugin",
                     "testing/good", "--min-samples", "1", "--max-time", "0.0001"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("kbench: skipped testing/good: no plugin describes its family "
                            "'testing', which so has no default sizes; run it with --sizes"),
            std::string::npos)
      << run.output;
  EXPECT_FALSE(run.rows.empty());
  for (const auto& row : run.rows) EXPECT_EQ(row.at("plugin"), "tuning/model");
  // Asked for by its family, or alone, it is refused, named.
  for (const std::vector<std::string>& select :
       {std::vector<std::string>{"--family", "testing"}, {"--plugin", "testing/good"}}) {
    std::vector<std::string> args = {"run", "--plugins", kbtest::test_plugin_dir("faulty")};
    args.insert(args.end(), select.begin(), select.end());
    run = kbench(args);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find("'testing'"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("pass --sizes"), std::string::npos) << run.output;
  }
}

// Ordinary bad input said "internal error" (exit 3): a loop of symbolic links or a name
// too long given to validate or new-plugin, new-plugin -o under a file; and a 30,000-character
// plugin name crashed new-plugin (SIGSEGV, no line).
TEST(InputRules, PathsAndNamesTheSystemRefusesAreBadInputInOneLine) {
  const kbtest::TempFolder folder;
  fs::create_symlink(folder.file("loop"), folder.file("loop"));
  { std::ofstream(folder.file("file")) << "x"; }
  const std::string long_name(5000, 'b');
  const std::vector<Refused> cases = {
      {{"validate", folder.file("loop")}, "loop"},
      {{"validate", folder.file(long_name + ".so")}, "File name too long"},
      {{"new-plugin", "mine", "--family", "transpose", "-o", folder.file("loop") + "/sub"},
       "Too many levels of symbolic links"},
      {{"new-plugin", "mine", "--family", "transpose", "-o", folder.file(long_name)},
       "File name too long"},
      {{"new-plugin", "mine", "--family", "transpose", "-o", folder.file("file") + "/sub"},
       "Not a directory"},
      {{"new-plugin", std::string(30000, 'a'), "--family", "transpose", "-o", folder.file("x")},
       "at most 100 characters"},
      {{"new-plugin", "mine", "--family", std::string(30000, 'f'), "-o", folder.file("x")},
       "at most 100 characters"},
  };
  for (const auto& c : cases) {
    const auto run = kbench(c.args);
    EXPECT_EQ(run.exit_code, 2) << c.expected << "\n" << run.output.substr(0, 300);
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output.substr(0, 300);
    EXPECT_NE(run.output.find(c.expected), std::string::npos) << run.output.substr(0, 300);
  }
}

}  // namespace
