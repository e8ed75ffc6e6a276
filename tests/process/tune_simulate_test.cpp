// `kbench tune --simulate CSV` replays the strategies against measured rows, without a
// GPU. On a CSV written here by the real results store from the tuning tests' cost model (three
// axes, a shallow global basin, a local optimum): random and greedy come within 5% of the optimum
// in at most a third of the space's evaluations. On the committed H100 results (the transpose
// plugins measured with three blocks): exhaustive needs exactly the evaluations the grid's order
// implies, and no strategy needs more than the space.
#include "case/case_spec.hpp"
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"
#include "support/tuning_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>
#include <tuple>

namespace {

using kbtest::kbench;
namespace model = kbtest::tuning;

// The cells of the table row of `problem` (and `where`, when given), trimmed; empty when absent.
std::vector<std::string> table_row(const std::string& output, const std::string& problem,
                                   const std::string& where = "") {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> cells;
    std::istringstream parts(line);
    for (std::string cell; std::getline(parts, cell, '|');) {
      const auto first = cell.find_first_not_of(' ');
      const auto last = cell.find_last_not_of(' ');
      cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    }
    if (cells.size() > 3 && cells[1] == problem && (where.empty() || cells[2] == where)) {
      return {cells.begin() + 1, cells.end()};
    }
  }
  return {};
}

// The model's space measured: every accepted configuration of each shape as a results row.
void write_model_space(const std::string& csv) {
  kb::ResultsStore store(csv);
  for (long long n : {1000, 2000}) {
    for (int b = 0; b < 5; ++b) {
      for (int u = 0; u < 4; ++u) {
        for (int v = 0; v < 2; ++v) {
          if (model::refused(b, u)) continue;
          kb::ResultCells row;
          row.run_id = "space";
          row.gpu_name = "Model GPU";
          row.device = "0";
          row.family = "tuning";
          row.plugin = "tuning/model";
          row.plugin_version = "1";
          row.dtype = "int32";
          row.shape = std::to_string(n);
          row.block = model::kBlocks[b];
          row.params = "unroll=" + std::to_string(model::kUnrolls[u]) +
                                ";vec=" + std::to_string(model::kVecs[v]);
          row.seed = "42";
          row.cache = "hot";
          const bool broken = model::broken(b, u, v);
          row.status = broken ? "verify_failed" : "ok";
          if (!broken) row.median_us = std::to_string(model::cost_us(n, {b, u, v}));
          store.append(row);
        }
      }
    }
  }
}

// Exhaustive search's evaluations to a configuration within 5% of the optimum: the position of
// the first such one in the grid's order (blocks by threads, values ascending).
int exhaustive_evaluations(long long n) {
  int evaluations = 0;
  for (int b = 0; b < 5; ++b) {
    for (int u = 0; u < 4; ++u) {
      for (int v = 0; v < 2; ++v) {
        if (model::refused(b, u)) continue;
        ++evaluations;
        if (!model::broken(b, u, v) && model::cost_us(n, {b, u, v}) <= 1.05 * 100 * n / 1000) {
          return evaluations;
        }
      }
    }
  }
  return -1;
}

TEST(TuneSimulate, RandomAndGreedyFindTheModelsOptimumInAThirdOfTheSpace) {
  const kbtest::TempFolder folder;
  const std::string csv = folder.file("space.csv");
  write_model_space(csv);
  const auto run = kbench({"tune", "--simulate", csv, "--seeds", "20"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::size_t space = model::kConfigurations - 2;
  for (long long n : {1000, 2000}) {
    const auto cells = table_row(run.output, "tuning/model int32 " + std::to_string(n));
    // problem, where, configurations, exhaustive, random, greedy, anneal
    ASSERT_EQ(cells.size(), 7u) << run.output;
    EXPECT_EQ(cells[1], "run space, Model GPU (device 0)");
    EXPECT_EQ(cells[2], std::to_string(space));
    EXPECT_EQ(std::atof(cells[3].c_str()), exhaustive_evaluations(n)) << run.output;
    for (std::size_t strategy : {4u, 5u}) {  // random, greedy
      EXPECT_EQ(cells[strategy].find("missed"), std::string::npos) << run.output;
      EXPECT_LE(std::atof(cells[strategy].c_str()), space / 3.0) << run.output;
    }
  }
  const auto third = table_row(run.output, "problems found in a third of the space");
  ASSERT_EQ(third.size(), 7u) << run.output;
  EXPECT_EQ(third[4], "2 of 2");
  EXPECT_EQ(third[5], "2 of 2");
  // The same seeds, the same table.
  EXPECT_EQ(kbench({"tune", "--simulate", csv, "--seeds", "20"}).output, run.output);
}

TEST(TuneSimulate, ABudgetTooSmallIsCountedAsMissedAndStrategiesCanBeChosen) {
  const kbtest::TempFolder folder;
  const std::string csv = folder.file("space.csv");
  write_model_space(csv);
  const auto run = kbench({"tune", "--simulate", csv, "--strategy", "exhaustive,random", "--budget",
                           "3", "--seeds", "5"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto cells = table_row(run.output, "tuning/model int32 1000");
  ASSERT_EQ(cells.size(), 5u) << run.output;  // problem, where, configurations, two strategies
  EXPECT_EQ(cells[3], "never") << "exhaustive reaches the basin at evaluation 20";
  EXPECT_NE(run.output.find("at most 3 evaluations each"), std::string::npos) << run.output;
}

TEST(TuneSimulate, OnTheCommittedH100TransposeSweeps) {
  const std::string csv = std::string(KBENCH_SOURCE_DIR) + "/results/h100.csv";
  const auto run =
      kbench({"tune", "--simulate", csv, "--plugin", "transpose/naive_*", "--seeds", "10"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // Each problem the file measured with several blocks, from its rows: the blocks in the space's
  // order and the first within 5% of the fastest.
  std::map<std::tuple<std::string, std::string, std::string, std::string>,
           std::vector<std::pair<kb::Block, double>>>
      problems;
  for (const auto& row : kb::read_results(csv)) {
    if (row.plugin.rfind("transpose/naive_", 0) != 0 || row.status != "ok") continue;
    problems[{row.run_id, row.plugin, row.dtype, row.shape}]
        .emplace_back(kb::parse_blocks(row.block).front(),
                      std::atof(row.median_us.c_str()));
  }
  std::size_t checked = 0;
  for (auto& [key, measured] : problems) {
    const auto& [run_id, plugin, dtype, shape] = key;
    if (measured.size() < 2) continue;
    std::sort(measured.begin(), measured.end(), [](const auto& a, const auto& b) {
      return std::make_tuple(a.first.threads(), a.first.dims) <
             std::make_tuple(b.first.threads(), b.first.dims);
    });
    double best = measured.front().second;
    for (const auto& [block, median] : measured) best = std::min(best, median);
    std::size_t first_good = 0;
    while (measured[first_good].second > 1.05 * best) ++first_good;
    const auto cells = table_row(run.output, plugin + " " + dtype + " " + shape,
                                 "run " + run_id + ", NVIDIA H100 80GB HBM3 (device 0)");
    ASSERT_EQ(cells.size(), 7u) << plugin << " " << shape << " " << run_id << "\n" << run.output;
    EXPECT_EQ(cells[2], std::to_string(measured.size()));
    EXPECT_EQ(std::atof(cells[3].c_str()), static_cast<double>(first_good + 1)) << cells[0];
    for (std::size_t strategy = 4; strategy < 7; ++strategy) {
      EXPECT_EQ(cells[strategy].find("missed"), std::string::npos) << cells[0];
      EXPECT_LE(std::atof(cells[strategy].c_str()), static_cast<double>(measured.size()));
    }
    ++checked;
  }
  // naive_row and naive_col, 2 dtypes x 3 shapes, in each goal run the file holds (two or more:
  // runs are appended as they are measured).
  EXPECT_GE(checked, 24u);
  EXPECT_EQ(checked % 12, 0u) << checked;
}

TEST(TuneSimulate, ACsvWithNothingToSearchIsRefused) {
  const kbtest::TempFolder folder;
  const auto run =
      kbench({"tune", "--simulate", std::string(KBENCH_SOURCE_DIR) + "/results/h100.csv",
              "--plugin", "transpose/cublas"});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("has two or more configurations measured, one of them ok: nothing to "
                            "simulate"),
            std::string::npos)
      << run.output;
}

}  // namespace
