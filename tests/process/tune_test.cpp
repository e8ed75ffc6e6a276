// `kbench tune` end to end — real kbench processes tuning the host plugin tuning/model,
// which spins for the cost model of tests/support/tuning_model.hpp (3 axes: block, unroll, vec;
// 2 configurations refused by its accepts(), 1 that fails verification; a shallow global basin and
// a local optimum), its rows written by the real results store — and `kbench run --best`.
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"
#include "support/tuning_model.hpp"
#include "tune/best_configs.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <thread>

namespace {

using kbtest::kbench;
namespace model = kbtest::tuning;

model::Point point_of(const kbtest::Row& row) {
  return model::point_of(row.at("block"), row.at("params"));
}

std::string configuration(const kbtest::Row& row) {
  return row.at("block") + " " + row.at("params");
}

// "block=32x8 unroll=2 vec=2", as tune's table names a point.
std::string described(model::Point p) {
  return std::string("block=") + model::kBlocks[p.b] +
         " unroll=" + std::to_string(model::kUnrolls[p.u]) +
         " vec=" + std::to_string(model::kVecs[p.v]);
}

namespace fs = boost::filesystem;

class Tune : public ::testing::Test {
 protected:
  std::vector<std::string> tune(std::vector<std::string> extra, const std::string& sizes = "1000",
                                const std::string& min_time = "0.005") const {
    std::vector<std::string> args = {
        "tune",       "--plugins",    kbtest::test_plugin_dir("tuning"),
        "--plugin",   "tuning/model", "--sizes",
        sizes,        "--min-time",   min_time,
        "--max-time", "0.05",         "--output",
        csv_,         "--best",       best_};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  std::vector<std::string> run_best(std::vector<std::string> extra) const {
    std::vector<std::string> args = {
        "run",        "--plugins",    kbtest::test_plugin_dir("tuning"),
        "--plugin",   "tuning/model", "--best",
        best_,        "--min-time",   "0.005",
        "--max-time", "0.05"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  kbtest::TempFolder folder_;
  const std::string csv_ = folder_.file("tune.csv");
  const std::string best_ = folder_.file("best.json");
};

TEST_F(Tune, ExhaustiveMeasuresEachAcceptedConfigurationOnceAndFindsTheOptimum) {
  const auto run = kbench(tune({"--strategy", "exhaustive"}), csv_);
  // The configuration that fails verification is a bad configuration, not a failed tune.
  EXPECT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), static_cast<std::size_t>(model::kConfigurations - 2)) << run.output;
  std::set<std::string> seen;
  std::map<std::string, std::size_t> statuses;
  for (const auto& row : run.rows) {
    const model::Point p = point_of(row);
    ASSERT_GE(p.b, 0) << configuration(row);
    ASSERT_GE(p.v, 0) << configuration(row);
    EXPECT_FALSE(model::refused(p.b, p.u)) << "a configuration its accepts() refuses ran";
    EXPECT_TRUE(seen.insert(configuration(row)).second) << configuration(row) << " ran twice";
    ++statuses[row.at("status")];
    EXPECT_EQ(row.at("status"), model::broken(p.b, p.u, p.v) ? "verify_failed" : "ok");
  }
  EXPECT_EQ(statuses["verify_failed"], 1u);
  const std::string optimum = described(model::global_optimum(1000));
  EXPECT_NE(run.output.find("| tuning/model int32 1000 | " + optimum), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("1 best configuration merged into " + best_), std::string::npos);
}

TEST_F(Tune, ParamNarrowsAParametersAxisTheOthersSpanAllTheirChoices) {
  // vec fixed to 2 by --param; unroll, not named, spans its four choices, not its one sweep value.
  const auto run = kbench(tune({"--param", "vec=2"}), csv_);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.rows.size(), 5u * 4 - 1) << run.output;  // 32x16 with unroll 8 refused
  std::set<int> unrolls;
  for (const auto& row : run.rows) {
    EXPECT_EQ(point_of(row).v, 1) << row.at("params");
    unrolls.insert(point_of(row).u);
  }
  EXPECT_EQ(unrolls.size(), 4u);
}

TEST_F(Tune, ABudgetBoundsEachProblemAndTheSameSeedMeasuresTheSameConfigurations) {
  // Random search does not depend on the costs measured: the same seed, the same configurations.
  auto first =
      kbench(tune({"--strategy", "random", "--budget", "6", "--seed", "11"}, "1000,2000"), csv_);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  ASSERT_EQ(first.rows.size(), 12u) << first.output;
  const std::string other = folder_.file("other.csv");
  auto again = kbench({"tune",
                       "--plugins",
                       kbtest::test_plugin_dir("tuning"),
                       "--plugin",
                       "tuning/model",
                       "--sizes",
                       "1000,2000",
                       "--strategy",
                       "random",
                       "--budget",
                       "6",
                       "--seed",
                       "11",
                       "--min-time",
                       "0.005",
                       "--max-time",
                       "0.05",
                       "--output",
                       other,
                       "--best",
                       folder_.file("other.json")},
                      other);
  ASSERT_EQ(again.rows.size(), 12u) << again.output;
  for (std::size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(configuration(first.rows[i]), configuration(again.rows[i])) << "evaluation " << i;
  }
  // Greedy and annealing within their budgets too.
  for (const char* strategy : {"greedy", "anneal"}) {
    const std::string csv = folder_.file(std::string(strategy) + ".csv");
    const auto run =
        kbench({"tune", "--plugins", kbtest::test_plugin_dir("tuning"), "--plugin", "tuning/model",
                "--sizes", "2000", "--strategy", strategy, "--budget", "15", "--min-time", "0.005",
                "--max-time", "0.05", "--output", csv, "--best", folder_.file("b.json")},
               csv);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.rows.size(), 15u) << strategy << "\n" << run.output;
  }
}

TEST_F(Tune, AResumedTuneReadsBackWhatItsRunIdMeasuredAndRunsOnlyTheRest) {
  auto run =
      kbench(tune({"--strategy", "random", "--budget", "5", "--seed", "3", "--run-id", "t"}), csv_);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 5u);
  const auto before = run.rows;

  run =
      kbench(tune({"--strategy", "random", "--budget", "9", "--seed", "3", "--run-id", "t"}), csv_);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("run id 't' already has rows for 5 of the 38 configurations"),
            std::string::npos)
      << run.output;

  run = kbench(
      tune({"--strategy", "random", "--budget", "9", "--seed", "3", "--run-id", "t", "--resume"}),
      csv_);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("5 already in the CSV (resumed)"), std::string::npos) << run.output;
  ASSERT_EQ(run.rows.size(), 9u) << run.output;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < run.rows.size(); ++i) {
    EXPECT_TRUE(seen.insert(configuration(run.rows[i])).second) << configuration(run.rows[i]);
    if (i < before.size()) {
      EXPECT_EQ(run.rows[i].at("timestamp_utc"), before[i].at("timestamp_utc"));
    }
  }
}

TEST_F(Tune, AnInterruptedTuneSaysHowToResumeAndTheResumeFinishesIt) {
  const std::string log = folder_.file("tune.log");
  const pid_t pid = kbtest::spawn_kbench(
      tune({"--strategy", "exhaustive", "--run-id", "stopped"}, "1000,2000", "0.05"), log);
  // Interrupt once a few configurations are in the CSV.
  for (int i = 0; i < 600; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (kbtest::count_lines(kbtest::read_file(csv_)) > 4) break;
  }
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  const std::string output = kbtest::read_file(log);
  ASSERT_TRUE(WIFEXITED(status)) << output;
  EXPECT_EQ(WEXITSTATUS(status), 130) << output;
  const auto resume_at = output.find("Resume with:\n  kbench tune ");
  ASSERT_NE(resume_at, std::string::npos) << output;
  EXPECT_NE(output.find("--run-id stopped --resume", resume_at), std::string::npos) << output;
  const std::size_t measured = kb::read_results(csv_).size();
  EXPECT_LT(measured, 76u);

  const auto run = kbench(
      tune({"--strategy", "exhaustive", "--run-id", "stopped", "--resume"}, "1000,2000"), csv_);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 76u) << run.output;
  std::set<std::string> seen;
  for (const auto& row : run.rows) {
    EXPECT_TRUE(seen.insert(row.at("shape") + " " + configuration(row)).second);
  }
}

TEST_F(Tune, TheBestFileKeepsEachProblemsBestAndRunBestRunsIt) {
  ASSERT_EQ(kbench(tune({}, "1000,2000"), csv_).exit_code, 0);
  auto best = kb::BestConfigs::read(best_);
  ASSERT_EQ(best.entries().size(), 2u);
  for (const auto& entry : best.entries()) {
    EXPECT_EQ(entry.key.plugin, "tuning/model");
    EXPECT_EQ(entry.key.gpu_name, "") << "a host plugin's entry names no GPU";
    EXPECT_EQ(entry.strategy, "exhaustive");
    EXPECT_EQ(entry.space, 38u);
  }
  const auto* at_2000 = best.find({"", "", "tuning/model", "1", "int32", "", "2000"});
  ASSERT_NE(at_2000, nullptr);
  const model::Point optimum = model::global_optimum(2000);
  EXPECT_EQ(at_2000->configuration.block, model::kBlocks[optimum.b]);
  EXPECT_EQ(at_2000->configuration.params, "unroll=" + std::to_string(model::kUnrolls[optimum.u]) +
                                               ";vec=" + std::to_string(model::kVecs[optimum.v]));

  // Tuning one shape again replaces its entry and keeps the other's.
  ASSERT_EQ(kbench(tune({"--strategy", "random", "--budget", "3"}, "1000"), csv_).exit_code, 0);
  best = kb::BestConfigs::read(best_);
  ASSERT_EQ(best.entries().size(), 2u);
  EXPECT_EQ(best.find({"", "", "tuning/model", "1", "int32", "", "1000"})->strategy, "random");
  EXPECT_EQ(best.find({"", "", "tuning/model", "1", "int32", "", "2000"})->strategy, "exhaustive");

  // run --best: each shape of the file once, at its tuned configuration.
  const std::string runs = folder_.file("runs.csv");
  auto run = kbench(run_best({}), runs);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 2u) << run.output;
  for (const auto& row : run.rows) {
    const auto* entry = best.find({"", "", "tuning/model", "1", "int32", "", row.at("shape")});
    ASSERT_NE(entry, nullptr) << row.at("shape");
    EXPECT_EQ(row.at("block"), entry->configuration.block);
    EXPECT_EQ(row.at("params"), entry->configuration.params);
    EXPECT_EQ(row.at("status"), "ok");
  }
  // With --sizes: a size the file lacks runs the default blocks and parameters, and says so.
  run = kbench(run_best({"--sizes", "2000,3000"}), folder_.file("sizes.csv"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("tuning/model int32 3000 on the host: no tuned configuration in " +
                            best_ + "; runs its default blocks and parameters"),
            std::string::npos)
      << run.output;
  std::map<std::string, std::size_t> per_shape;
  for (const auto& row : run.rows) ++per_shape[row.at("shape")];
  EXPECT_EQ(per_shape["2000"], 1u);
  EXPECT_EQ(per_shape["3000"], 5u) << "the family's five default blocks at the default parameters";
}

TEST_F(Tune, BadInputIsOneLineAndExitTwo) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {tune({"--strategy", "bogus"}),
       "unknown strategy 'bogus' (strategies: exhaustive, random, "
       "greedy, anneal)"},
      {tune({"--strategy", "greedy"}), "--strategy greedy needs --budget N or --time S"},
      {tune({"--strategy", "random,greedy", "--budget", "3"}), "kbench tune takes one --strategy"},
      {tune({"--budget", "0"}), "--budget '0': must be a whole number from 1"},
      {{"tune", "--sizes", "1000"}, "kbench tune needs --plugin"},
      {{"tune", "--simulate", "x.csv", "--output", "y.csv"},
       "--simulate replays measured rows and measures nothing: it cannot be combined with "
       "--output"},
      {run_best({"--blocks", "32x8"}),
       "--best fixes each problem's block and parameters: it "
       "cannot be combined with --blocks"},
  };
  for (const auto& [args, message] : cases) {
    const auto run = kbench(args, folder_.file("bad.csv"));
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
    EXPECT_NE(run.output.find(message), std::string::npos) << run.output;
  }
  { std::ofstream(best_) << "{\"format\": \"something else\"}"; }
  const auto run = kbench(run_best({}), folder_.file("bad.csv"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("best-configuration file '" + best_ + "'"), std::string::npos)
      << run.output;
}

// Tune ran its whole search before refusing a --best it could not merge into (a folder,
// a malformed file: exit 3 at the end), and rewrote best.json without the keys a person added.
TEST_F(Tune, ABestFileItCannotMergeIntoIsRefusedBeforeTheSearch) {
  fs::create_directories(folder_.path() / "a-folder");
  { std::ofstream(folder_.file("broken.json")) << "{\"format\": "; }
  for (const std::string& best : {folder_.file("a-folder"), folder_.file("broken.json")}) {
    auto args = tune({});
    *std::find(args.begin(), args.end(), best_) = best;
    const auto run = kbench(args, csv_);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
    EXPECT_NE(run.output.find("best-configuration file '" + best + "'"), std::string::npos)
        << run.output;
    EXPECT_FALSE(fs::exists(csv_)) << "the search ran before the file was refused";
  }
}

TEST_F(Tune, KeysAPersonAddedToTheBestFileAreKept) {
  ASSERT_EQ(kbench(tune({}, "1000,2000"), csv_).exit_code, 0);
  std::string text = kbtest::read_file(best_);
  // A note on the file, and one on each entry.
  text.replace(text.find('{'), 1, "{\n  \"owner\": \"team gpu\",");
  for (auto at = text.find("\"gpu_name\""); at != std::string::npos;
       at = text.find("\"gpu_name\"", at + 40)) {
    text.insert(at, "\"note\": {\"why\": \"checked by hand\"}, ");
  }
  { std::ofstream(best_) << text; }
  ASSERT_EQ(kbench(tune({"--strategy", "random", "--budget", "2"}, "1000"), csv_).exit_code, 0);
  const std::string after = kbtest::read_file(best_);
  EXPECT_NE(after.find("\"owner\": \"team gpu\""), std::string::npos) << after;
  std::size_t notes = 0;
  for (auto at = after.find("\"why\": \"checked by hand\""); at != std::string::npos;
       at = after.find("\"why\": \"checked by hand\"", at + 1)) {
    ++notes;
  }
  EXPECT_EQ(notes, 2u) << "the retuned entry and the other keep their notes:\n" << after;
  const auto best = kb::BestConfigs::read(best_);
  EXPECT_EQ(best.find({"", "", "tuning/model", "1", "int32", "", "1000"})->strategy, "random");
}

}  // namespace
