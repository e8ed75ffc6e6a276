// `kbench report --history`: the page and the plots the command writes for four nights.
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"
#include "support/night_rows.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace kb {
namespace {

using kbtest::four_nights;
using kbtest::kSteadyFive;
using kbtest::night_rows;
using kbtest::shaped;
using kbtest::read_file;

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
  // The plot: a line per case over the four runs, evenly spaced in the order they started (each
  // labelled with its start), the regression a marked point.
  const std::string script = read_file(folder.file("out/history_transpose.gp"));
  // Every text single-quoted (gnuplot runs backquotes inside double quotes).
  EXPECT_NE(script.find("('2026-11-10 02:00' 0, '2026-11-11 02:00' 1, '2026-11-12 02:00' 2, "
                        "'2026-11-13 02:00' 3)"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("with points pt 7 ps 2 lc rgb '#d62728' title "
                        "'slower (the gate failed it)'"),
            std::string::npos)
      << script;
  const std::string data = read_file(folder.file("out/history_transpose.dat"));
  EXPECT_NE(data.find("2\t1.04762"), std::string::npos) << data;  // 440 over the median 420
}

// 25 runs a minute apart were one stripe of the plot, their labels over each other. Each
// run has its place, and at most ten labels (the first and the last among them) name them.
TEST(History, RunsAMinuteApartAreEvenlySpacedAndOnlySomeAreLabelled) {
  const kbtest::TempFolder folder;
  {
    ResultsStore store(folder.file("runs.csv"));
    for (int run = 0; run < 25; ++run) {
      char stamp[32];
      std::snprintf(stamp, sizeof stamp, "2026-11-25T01:%02d:00Z", run);
      for (const auto& row :
           night_rows("r" + std::to_string(run), shaped("1024", kSteadyFive), stamp)) {
        store.append(row);
      }
    }
  }
  const auto run =
      kbtest::kbench({"report", folder.file("runs.csv"), "--history", "-o", folder.file("out")});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string script = read_file(folder.file("out/history_transpose.gp"));
  EXPECT_NE(script.find("set xtics rotate by -30 noenhanced ('2026-11-25 01:00' 0, "
                        "'2026-11-25 01:03' 3, '2026-11-25 01:06' 6, "),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("'2026-11-25 01:21' 21, '2026-11-25 01:24' 24)"), std::string::npos)
      << script;
  const std::string data = read_file(folder.file("out/history_transpose.dat"));
  EXPECT_NE(data.find("\n24\t1\n"), std::string::npos) << data;
}

// A history longer than a page charts: history.md keeps every run, the page the latest thousand,
// and says so.
TEST(History, ThePageOfALongHistoryChartsItsLatestThousandRuns) {
  const kbtest::TempFolder folder;
  {
    ResultsStore store(folder.file("runs.csv"));
    for (int run = 0; run < 1002; ++run) {
      char stamp[32];
      std::snprintf(stamp, sizeof stamp, "2026-11-%02dT%02d:%02d:00Z", 1 + run / 1440,
                    run / 60 % 24, run % 60);
      const double median = run == 1001 ? 440 : 400;  // the last run slower
      for (const auto& row : night_rows("r" + std::to_string(run),
                                        shaped("1024", {median, median, median, median, median}),
                                        stamp)) {
        store.append(row);
      }
    }
  }
  const auto run = kbtest::kbench({"report", folder.file("runs.csv"), "--history", "-o",
                                   folder.file("out"), "--html", folder.file("history.html")});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(read_file(folder.file("out/history.md")).find("1002 runs of 1 cases"),
            std::string::npos);
  const std::string page = read_file(folder.file("history.html"));
  EXPECT_NE(page.find("The latest 1000 of 1002 runs of 1 cases"), std::string::npos);
  EXPECT_EQ(page.find("\"r1\""), std::string::npos);  // the two oldest runs are left out
  EXPECT_NE(page.find("\"r2\""), std::string::npos);
  EXPECT_NE(page.find("\"r1001\""), std::string::npos);
}

}  // namespace
}  // namespace kb
