// `kbench report --history`: the runs in the order they ran, each case's median per run, the
// gate's regressions between consecutive runs, and the page and plots the command writes.
#include "analysis/history.hpp"
#include "store/key_columns.hpp"
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"
#include "support/night_rows.hpp"
#include "util/input_error.hpp"

#include <gtest/gtest.h>

namespace kb {
namespace {

using kbtest::kSteadyFive;
using kbtest::NightCase;
using kbtest::night_rows;
using kbtest::read_file;
using kbtest::scaled;
using kbtest::shaped;

// Four nights, one a day; case 2048 gets 10% slower on the third and stays so. The run ids sort
// against the order they ran in, which the history must follow.
std::vector<ResultRow> four_nights() {
  const std::vector<std::string> ids = {"zeta", "epsilon", "delta", "alpha"};
  std::vector<ResultRow> rows;
  for (int night = 0; night < 4; ++night) {
    const std::string stamp = "2026-11-1" + std::to_string(night) + "T02:00:00Z";
    const double slowdown = night >= 2 ? 4.4 : 4;
    for (const auto& c :
         {shaped("1024", kSteadyFive), shaped("2048", scaled(kSteadyFive, slowdown))}) {
      const auto more = night_rows(ids[night], c, stamp);
      rows.insert(rows.end(), more.begin(), more.end());
    }
  }
  return rows;
}

TEST(History, RunsInTheOrderTheyRanWithEachCasesMedianAndTheRegression) {
  const History h = history(four_nights(), {});
  ASSERT_EQ(h.runs.size(), 4u);
  EXPECT_EQ(h.runs[0].run_id, "zeta");
  EXPECT_EQ(h.runs[3].run_id, "alpha");
  EXPECT_EQ(h.runs[2].started_text, "2026-11-12T02:00:00Z");
  EXPECT_EQ(h.runs[1].started - h.runs[0].started, 24 * 3600);
  ASSERT_EQ(h.cases.size(), 2u);
  const std::size_t shape = key_column(h.key_columns, "shape");
  EXPECT_EQ(h.cases[0].key[shape], "1024");
  const CaseHistory& slowed = h.cases[1];
  EXPECT_EQ(slowed.key[shape], "2048");
  EXPECT_DOUBLE_EQ(*slowed.median[0], 400);
  EXPECT_DOUBLE_EQ(*slowed.median[3], 440);
  EXPECT_EQ(slowed.slower, (std::vector<bool>{false, false, true, false}));
  ASSERT_EQ(h.regressions.size(), 1u);
  EXPECT_EQ(h.regressions[0].run, 2u);
  EXPECT_EQ(h.regressions[0].case_index, 1u);
  EXPECT_NEAR(h.regressions[0].effect, 0.10, 1e-9);
  EXPECT_NEAR(*h.regressions[0].p_value, 2.0 / 252, 1e-12);
}

TEST(History, ACaseMissingFromARunHasNoMedianThere) {
  auto rows = four_nights();
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [](const ResultRow& r) {
                              return r.get("run_id") == "epsilon" && r.get("shape") == "1024";
                            }),
             rows.end());
  const History h = history(rows, {});
  EXPECT_FALSE(h.cases[0].median[1]);
  EXPECT_TRUE(h.cases[0].median[2]);
  EXPECT_EQ(h.runs[1].cases, 1u);
}

TEST(History, OneRunIsAHistoryOfOnePoint) {
  const auto rows = night_rows("only", shaped("1024", kSteadyFive));
  const History h = history(rows, {});
  ASSERT_EQ(h.runs.size(), 1u);
  EXPECT_DOUBLE_EQ(*h.cases.at(0).median[0], 100);
  EXPECT_TRUE(h.regressions.empty());
}

TEST(History, NoMedianAtAllIsAnInputError) {
  NightCase crashed = shaped("1024", {});
  crashed.status = "crashed";
  EXPECT_THROW(history(night_rows("n1", crashed), {}), InputError);
}

TEST(History, ReportHistoryWritesThePageAndAPlotPerFamily) {
  const kbtest::TempFolder folder;
  {
    ResultsStore store(folder.file("nights.csv"));
    for (const auto& row : four_nights()) store.append(row);
  }
  const auto run =
      kbtest::kbench({"report", folder.file("nights.csv"), "--history", "-o", folder.file("out")});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string page = read_file(folder.file("out/history.md"));
  EXPECT_EQ(page, R"(# Nightly history

4 runs of 2 cases, oldest first. A line of a plot is one case: its median time in each run (the median of its repetitions' medians, the cards of a GPU model pooled) over its median across the runs, so that every case of a family shares one axis; the lines of one plugin share its colour. A red point is a regression: the gate (`kbench compare`, each run against the one before) failed the case as slower (at least 1.0% slower with p < 0.05).

| run     | started (UTC)        | cases | regressions |
|---------|----------------------|------:|------------:|
| zeta    | 2026-11-10T02:00:00Z |     2 |           0 |
| epsilon | 2026-11-11T02:00:00Z |     2 |           0 |
| delta   | 2026-11-12T02:00:00Z |     2 |           1 |
| alpha   | 2026-11-13T02:00:00Z |     2 |           0 |

## transpose

![transpose](history_transpose.png)

| run   | plugin         | dtype   | shape | block | before us | after us | change |      p |
|-------|----------------|---------|-------|-------|----------:|---------:|-------:|-------:|
| delta | transpose/fast | float32 | 2048  | -     |     400.0 |    440.0 | +10.0% | 0.0079 |
)");
  // The plot: a line per case over the four days (x in hours), the regression a marked point.
  const std::string script = read_file(folder.file("out/history_transpose.gp"));
  EXPECT_NE(script.find("'2026-11-12 02:00' 48"), std::string::npos) << script;
  EXPECT_NE(script.find("with points pt 7 ps 2 lc rgb '#d62728' title "
                        "'slower (the gate failed it)'"),
            std::string::npos)
      << script;
  const std::string data = read_file(folder.file("out/history_transpose.dat"));
  EXPECT_NE(data.find("48\t1.04762"), std::string::npos) << data;  // 440 over the median 420
}

}  // namespace
}  // namespace kb
