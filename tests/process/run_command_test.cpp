// `kbench run` end to end on host plugins: the real executable, real plugins, the CSV read back.
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>

namespace {

using kbtest::kbench;
namespace fs = boost::filesystem;

TEST(RunCommand, HostTransposeWritesOkRowsWithMetadata) {
  // Time enough for the stopping rule's ten samples on a loaded CI host: a case out of time
  // keeps fewer (9 seen at --max-time 0.05 with the suite on both cores).
  const auto run = kbench({"run", "--family", "transpose", "--sizes", "1111x113,33x31,1",
                           "--dtypes", "float32,float64,int32", "--max-time", "0.5"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::map<std::string, int> cpu_rows;
  for (const auto& row : run.rows) {
    if (row.at("plugin") != "transpose/cpu") continue;
    EXPECT_EQ(row.at("status"), "ok") << row.at("message");
    EXPECT_EQ(row.at("family"), "transpose");
    EXPECT_EQ(row.at("device"), "host");
    EXPECT_EQ(row.at("block"), "-");
    EXPECT_FALSE(row.at("run_id").empty());
    EXPECT_FALSE(row.at("kbench_version").empty());
    EXPECT_GT(std::stod(row.at("median_us")), 0.0);
    EXPECT_GE(std::stoi(row.at("samples")), 10);
    EXPECT_GT(std::stod(row.at("gbps")), 0.0);
    EXPECT_EQ(row.at("max_rel_error"), "0");
    ++cpu_rows[row.at("dtype") + " " + row.at("shape")];
  }
  EXPECT_EQ(cpu_rows.size(), 9u);
  EXPECT_EQ(cpu_rows["int32 1111x113"], 1);
  EXPECT_NE(run.output.find("| transpose/cpu | float64 |  | 33x31 | - | ok |"), std::string::npos)
      << run.output;
}

TEST(RunCommand, EndsWithWhereTheTimeWent) {
  const auto run = kbench({"run", "--family", "transpose", "--plugin", "transpose/cpu", "--sizes",
                           "64,1000", "--dtypes", "float32,int32", "--max-time", "0.05"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::size_t at = run.output.rfind("\ntime: ");
  ASSERT_NE(at, std::string::npos) << run.output;
  const std::string line = run.output.substr(at + 1, run.output.find('\n', at + 1) - at - 1);
  // One worker (one plugin, one lane); four cases, each timed for up to 0.05 s.
  std::smatch m;
  ASSERT_TRUE(std::regex_match(line, m, std::regex(R"(time: ([0-9.]+) s; summed over the lanes: 1 )"
                                                   R"(worker starts ([0-9.]+) s, setup ([0-9.]+) s, )"
                                                   R"(timing ([0-9.]+) s, verify ([0-9.]+) s)")))
      << line;
  const double wall = std::stod(m[1]), timing = std::stod(m[4]);
  EXPECT_GT(timing, 0.0);
  EXPECT_LE(timing, 4 * 0.05 + 0.2);
  EXPECT_LE(std::stod(m[2]) + std::stod(m[3]) + timing + std::stod(m[5]), wall + 0.1)
      << "one lane's phases fit in the run's wall time";
}

TEST(RunCommand, WithoutADeviceSaysWhichCudaPluginsWereSkipped) {
  if (kbtest::cuda_device_present()) GTEST_SKIP() << "a CUDA device is present";
  const auto run = kbench({"run", "--family", "transpose", "--sizes", "64", "--max-time", "0.01"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("no CUDA device found"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("transpose/naive_row"), std::string::npos) << run.output;
}

struct BadInput {
  std::vector<std::string> args;
  const char* expected;
};

TEST(RunCommand, BadInputIsOneClearLineAndNoRow) {
  const std::vector<BadInput> cases = {
      {{"--sizes", "12x"}, "malformed size '12x'"},
      {{"--blocks", "0x4"}, "malformed block '0x4'"},
      {{"--blocks", "64x32"}, "block '64x32' has 2048 threads"},
      {{"--dtypes", "float8"}, "unknown data type 'float8'"},
      {{"--plugin", "transpose/nope"}, "no plugin matches 'transpose/nope'"},
      {{"--family", "sorting"}, "no plugin of family 'sorting'"},
      {{"--frobnicate"}, "unrecognised option '--frobnicate'"},
      // A prefix is not guessed into the option it starts: refused by name, like any other.
      {{"--max-tim", "1"}, "unrecognised option '--max-tim'"},
      {{"--config", "/nonexistent.ini"}, "cannot read config file '/nonexistent.ini'"},
      {{"--resume"}, "--resume needs the --run-id"},
      {{"--devices", "x"}, "malformed device 'x'"},
      {{"--repetitions", "0"}, "--repetitions 0: must be a whole number from 1 to 1000"},
      {{"--host-lanes", "0"}, "--host-lanes '0': must be a whole number from 1 to 16"},
      {{"--host-lanes", "many"}, "--host-lanes 'many': must be a whole number from 1 to 16"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"run", "--family", "transpose", "--plugin", "transpose/cpu"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto run = kbench(args);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
    EXPECT_NE(run.output.find(c.expected), std::string::npos) << run.output;
    EXPECT_EQ(run.output.find("terminate"), std::string::npos) << run.output;
    EXPECT_TRUE(run.rows.empty());
  }
}

// A --param a plugin cannot take is refused whether or not the plugin can run here: without a
// device the CUDA plugin is dropped, but its parameters are checked first (it ran nothing and
// exited 0 before).
TEST(RunCommand, AParamIsCheckedAgainstEverySelectedPluginWithOrWithoutADevice) {
  const std::vector<BadInput> cases = {
      {{"--param", "tile_bytes=100"},
       "--param tile_bytes=100: transpose/fast takes tile_bytes in auto,128,256,512"},
      {{"--param", "tile_height=1"}, "transpose/fast takes tile_height in auto,256,512"},
      {{"--param", "tiles=128"}, "no plugin selected has a parameter 'tiles'"},
      {{"--param", "=5"}, "malformed --param '=5'"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"run", "--plugin", "transpose/fast", "--sizes", "64"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto run = kbench(args);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find(c.expected), std::string::npos) << run.output;
    EXPECT_TRUE(run.rows.empty());
  }
}

TEST(RunCommand, RefusesACsvWithAnotherHeaderAndKeepsIt) {
  const fs::path csv = fs::temp_directory_path() / fs::unique_path("kbench-foreign-%%%%.csv");
  { std::ofstream(csv.string()) << "a,b,c\n1,2,3\n"; }
  const auto run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "8"}, csv.string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("has a different header"), std::string::npos) << run.output;
  std::ifstream in(csv.string());
  const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "a,b,c\n1,2,3\n");
  fs::remove(csv);
}

TEST(RunCommand, ReadsOptionsFromAConfigFileWithTheCommandLineWinning) {
  const fs::path ini = fs::temp_directory_path() / fs::unique_path("kbench-%%%%.ini");
  {
    std::ofstream out(ini.string());
    out << "# a preset\nplugin = transpose/cpu\nsizes = 16,32\ndtypes = int32\nmax-time = 0.01\n";
  }
  auto run = kbench({"run", "--config", ini.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 2u);
  EXPECT_EQ(run.rows[0].at("shape"), "16x16");
  EXPECT_EQ(run.rows[1].at("dtype"), "int32");
  run = kbench({"run", "--config", ini.string(), "--sizes", "8"});
  ASSERT_EQ(run.rows.size(), 1u);
  EXPECT_EQ(run.rows[0].at("shape"), "8x8");
  fs::remove(ini);
}

TEST(RunCommand, ListShowsPluginsAndWhyBadFilesWereSkipped) {
  const auto run = kbench({"list", "--plugins", kbtest::test_plugin_dir("loader")});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.output.find("| transpose/cpu | host | float32,float64,int32,float16,bfloat16,int8 |"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("| testing/good | host | int32 |"), std::string::npos);
  EXPECT_NE(run.output.find("kbt_abi_version.so: built for ABI version 99"), std::string::npos);
  EXPECT_NE(run.output.find("not_a_library.so: not a loadable shared library"), std::string::npos);
}

// A run beside plugins that cannot be loaded (another ABI version, not a library) runs the rest,
// names each file and why, and exits 1: the sweep lacks their rows. A --plugins folder that does
// not exist is the same.
TEST(RunCommand, PluginsThatCannotBeLoadedAreNamedAndTheRunExitsOne) {
  auto run = kbench({"run", "--plugins", kbtest::test_plugin_dir("loader"), "--plugin",
                     "testing/good", "--sizes", "10", "--dtypes", "int32", "--max-time", "0.01"});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ASSERT_EQ(run.rows.size(), 1u) << run.output;
  EXPECT_EQ(run.rows[0].at("status"), "ok");
  EXPECT_NE(run.output.find("kbt_abi_version.so: built for ABI version 99"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("file(s) of the plugin folders could not be loaded"), std::string::npos)
      << run.output;

  run = kbench({"run", "--plugins", "/nonexistent-kbench-folder", "--plugin", "transpose/cpu",
                "--sizes", "10", "--dtypes", "int32", "--max-time", "0.01"});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("skipped /nonexistent-kbench-folder: not a folder"), std::string::npos)
      << run.output;
}

}  // namespace

namespace {

// list selects as run does; `--plugin` once became list's `--plugins` (a folder) by Boost's
// prefix guessing, and listed everything.
TEST(RunCommand, ListSelectsByFamilyAndGlobAsRunDoes) {
  auto run = kbench({"list", "--plugins", kbtest::test_plugin_dir("loader"), "--plugin",
                     "testing/*"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("| testing/good | host | int32 |"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("| transpose/cpu |"), std::string::npos) << run.output;

  run = kbench({"list", "--family", "transpose", "--plugin", "*/cpu"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("| transpose/cpu | host |"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("| matmul/cpu |"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("| transpose/naive_row |"), std::string::npos) << run.output;

  for (const auto& [args, expected] :
       std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"list", "--plugin", "transpose/nope"}, "no plugin matches 'transpose/nope'"},
           {{"list", "--family", "sorting"}, "no plugin of family 'sorting'"},
           {{"list", "--plugi", "transpose/cpu"}, "unrecognised option '--plugi'"}}) {
    run = kbench(args);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
    EXPECT_NE(run.output.find(expected), std::string::npos) << run.output;
  }
}

TEST(RunCommand, SamplesOutKeepsEverySampleAndProfileTakesOne) {
  const fs::path samples = fs::temp_directory_path() / fs::unique_path("kbench-samples-%%%%.csv");
  // --max-time stops the samples before --min-samples: time enough for 25 on a loaded host, where
  // the checked samples' round trips to the referee count against it too (0.05 s once fell short
  // with the suite on both cores).
  auto run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "64", "--dtypes", "int32",
                     "--min-samples", "25", "--max-time", "0.5", "--samples-out", samples.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 1u);
  const int count = std::stoi(run.rows[0].at("samples"));
  EXPECT_GE(count, 25);
  std::ifstream in(samples.string());
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "run_id,gpu_uuid,device,plugin,dtype,op,shape,block,params,cache,repetition,sample,us");
  int lines = 0;
  while (std::getline(in, line)) {
    EXPECT_NE(line.find(",host,transpose/cpu,int32,,64x64,-,,hot,0," + std::to_string(lines) + ","),
              std::string::npos)
        << line;
    ++lines;
  }
  EXPECT_EQ(lines, count);
  fs::remove(samples);

  run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "64", "--profile"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 2u);  // the family's default dtypes: float32, float64
  EXPECT_EQ(run.rows[0].at("samples"), "1");
  EXPECT_EQ(run.rows[0].at("settled"), "0");
}

TEST(RunCommand, ShardsOfARunTogetherHoldEveryCaseOnce) {
  const fs::path csv = fs::temp_directory_path() / fs::unique_path("kbench-shards-%%%%.csv");
  std::multiset<std::string> cases;
  for (const char* shard : {"0/3", "1/3", "2/3"}) {
    const auto run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "8,16,24,32",
                             "--dtypes", "int32,float32", "--max-time", "0.01", "--shard", shard},
                            csv.string());
    ASSERT_EQ(run.exit_code, 0) << run.output;
  }
  for (const auto& row : kb::read_results(csv.string())) {
    cases.insert(row.dtype + " " + row.shape);
  }
  EXPECT_EQ(cases.size(), 8u);
  EXPECT_EQ(std::set<std::string>(cases.begin(), cases.end()).size(), 8u);
  fs::remove(csv);
}

TEST(RunCommand, RepetitionsAreWholePassesOverThePlanEachInAFreshWorker) {
  const auto run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "8,16", "--dtypes",
                           "int32", "--max-time", "0.01", "--repetitions", "3", "--no-hidden-shapes"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::vector<std::string> order;
  for (const auto& row : run.rows) order.push_back(row.at("repetition") + ":" + row.at("shape"));
  EXPECT_EQ(order, (std::vector<std::string>{"0:8x8", "0:16x16", "1:8x8", "1:16x16", "2:8x8",
                                             "2:16x16"}));
  // One plugin, so one worker would serve every case; each repetition starts its own.
  EXPECT_NE(run.output.find("summed over the lanes: 3 worker starts"), std::string::npos)
      << run.output;
}

TEST(RunCommand, HostLanesShareTheHostCasesOutAndRunEachOnce) {
  const std::vector<std::string> sweep = {"run",     "--plugin",   "transpose/cpu", "--plugin",
                                          "reduce/cpu", "--sizes", "64,4096",       "--dtypes",
                                          "int32",   "--max-time", "0.01"};
  std::vector<std::string> shared = sweep;
  shared.insert(shared.end(), {"--host-lanes", "3"});
  std::vector<std::string> single = sweep;
  single.insert(single.end(), {"--host-lanes", "1"});
  std::vector<std::string> automatic = sweep;
  automatic.insert(automatic.end(), {"--host-lanes", "auto"});
  const auto one = kbench(single);
  const auto three = kbench(shared);
  const auto chosen = kbench(automatic);
  ASSERT_EQ(one.exit_code, 0) << one.output;
  ASSERT_EQ(three.exit_code, 0) << three.output;
  ASSERT_EQ(chosen.exit_code, 0) << chosen.output;
  const auto cases = [](const kbtest::Run& run) {
    std::multiset<std::string> keys;
    for (const auto& row : run.rows) {
      EXPECT_EQ(row.at("status"), "ok") << row.at("message");
      keys.insert(row.at("plugin") + " " + row.at("op") + " " + row.at("shape"));
    }
    return keys;
  };
  EXPECT_EQ(cases(three), cases(one));
  EXPECT_EQ(cases(chosen), cases(one));
  // `auto`: one lane per host plugin at most (two here), fewer where the cores are few.
  std::smatch lanes;
  ASSERT_TRUE(std::regex_search(chosen.output, lanes, std::regex(R"(on ([0-9]+) lane\(s\))")))
      << chosen.output;
  EXPECT_GE(std::stoi(lanes[1]), 1);
  EXPECT_LE(std::stoi(lanes[1]), 2);
  EXPECT_NE(three.output.find("on 3 lane(s)"), std::string::npos) << three.output;
  // The time: line names each lane, slowest first.
  for (const char* lane : {"host 1 ", "host 2 ", "host 3 "}) {
    EXPECT_NE(three.output.find(lane), std::string::npos) << lane << "\n" << three.output;
  }
  EXPECT_EQ(one.output.find("; lanes:"), std::string::npos) << one.output;
}

// "repetition:shape" of every row of the file.
std::multiset<std::string> repetitions_and_shapes(const std::string& csv) {
  std::multiset<std::string> cases;
  for (const auto& row : kb::read_results(csv)) {
    cases.insert(row.repetition + ":" + row.shape);
  }
  return cases;
}

TEST(RunCommand, ResumeCountsEachRepetitionAsItsOwnCase) {
  const fs::path csv = fs::temp_directory_path() / fs::unique_path("kbench-reps-%%%%.csv");
  const std::vector<std::string> args = {"run", "--plugin", "transpose/cpu", "--sizes", "8,16",
                                         "--dtypes", "int32", "--max-time", "0.01", "--run-id",
                                         "night"};
  auto first = args;
  first.insert(first.end(), {"--repetitions", "2", "--no-hidden-shapes"});
  ASSERT_EQ(kbench(first, csv.string()).exit_code, 0);
  auto more = args;
  more.insert(more.end(), {"--repetitions", "3", "--no-hidden-shapes", "--resume"});
  const auto resumed = kbench(more, csv.string());
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(repetitions_and_shapes(csv.string()),
            (std::multiset<std::string>{"0:8x8", "0:16x16", "1:8x8", "1:16x16", "2:8x8", "2:16x16"}));
  fs::remove(csv);
}

TEST(RunCommand, ShardsWithRepetitionsHoldEveryCaseOncePerRepetition) {
  const fs::path csv = fs::temp_directory_path() / fs::unique_path("kbench-shards-%%%%.csv");
  for (const char* shard : {"0/2", "1/2"}) {
    const auto run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "8,16,24",
                             "--dtypes", "int32", "--max-time", "0.01", "--shard", shard,
                             "--repetitions", "2", "--no-hidden-shapes"},
                            csv.string());
    ASSERT_EQ(run.exit_code, 0) << run.output;
  }
  EXPECT_EQ(repetitions_and_shapes(csv.string()),
            (std::multiset<std::string>{"0:8x8", "0:16x16", "0:24x24", "1:8x8", "1:16x16",
                                        "1:24x24"}));
  fs::remove(csv);
}

TEST(RunCommand, ColdCacheIsRecordedAsTheCacheMode) {
  const auto run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "16", "--dtypes",
                           "int32", "--max-time", "0.01", "--cold"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 1u);
  EXPECT_EQ(run.rows[0].at("cache"), "cold");
}

TEST(RunCommand, APlainCPluginWhoseVerifyPassesNothingIsAFailedVerification) {
  const auto run = kbench({"run", "--plugins", kbtest::test_plugin_dir("plain_c"), "--family",
                           "plain_c", "--sizes", "1000", "--dtypes", "int32", "--max-time", "0.02"});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  std::map<std::string, kbtest::Row> by_plugin;
  for (const auto& row : run.rows) by_plugin[row.at("plugin")] = row;
  ASSERT_EQ(by_plugin.size(), 2u) << run.output;
  EXPECT_EQ(by_plugin["plain_c/none"].at("status"), "ok");
  EXPECT_EQ(by_plugin["plain_c/none"].at("timing"), "host");
  EXPECT_EQ(by_plugin["plain_c/passed_zero"].at("status"), "verify_failed");
  EXPECT_EQ(by_plugin["plain_c/passed_zero"].at("message"),
            "verification failed: verify returned KB_OK with passed = 0");
}

TEST(RunCommand, SixteenAndEightBitTypesVerifyAndCountTheirOwnBytes) {
  const auto run = kbench({"run", "--case", "transpose/cpu float16 1111x113",
                           "--case", "transpose/cpu bfloat16 1111x113",
                           "--case", "transpose/cpu int8 1111x113",
                           "--case", "reduce/cpu float16 125543 - sum",
                           "--case", "reduce/cpu float16 125543 - sumsq",
                           "--case", "reduce/cpu bfloat16 125543 - sum",
                           "--case", "reduce/cpu bfloat16 125543 - sumsq",
                           "--case", "reduce/cpu int8 125543 - sum",
                           "--case", "reduce/cpu int8 125543 - sumsq", "--max-time", "0.02"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  int transposes = 0, reductions = 0;
  for (const auto& row : run.rows) {
    EXPECT_EQ(row.at("status"), "ok") << row.at("plugin") << " " << row.at("dtype") << ": "
                                      << row.at("message");
    const double element = row.at("dtype") == "int8" ? 1 : 2;
    if (row.at("plugin") == "transpose/cpu") {
      ++transposes;
      EXPECT_EQ(std::stod(row.at("bytes")), 2 * 1111 * 113 * element);
      EXPECT_EQ(row.at("max_rel_error"), "0");
    } else {
      ++reductions;
      // 16-bit floats accumulate in float32, and every draw of the family sums exactly in float32
      // (-1, 0, +1): held to the exact sum, as int8 is.
      EXPECT_EQ(row.at("tolerance"), "0");
      EXPECT_EQ(row.at("max_rel_error"), "0");
    }
  }
  EXPECT_EQ(transposes, 3);
  EXPECT_EQ(reductions, 6);
}

}  // namespace
