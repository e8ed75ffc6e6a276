// `kbench report --history`'s analysis: the runs in the order they ran, each case's median per
// run, the gate's regressions between consecutive runs (the page and plots: tests/process).
#include "analysis/history.hpp"
#include "store/key_columns.hpp"
#include "support/night_rows.hpp"
#include "support/records.hpp"
#include "util/input_error.hpp"

#include <gtest/gtest.h>

#include <cstdio>

namespace kb {
namespace {

using kbtest::kSteadyFive;
using kbtest::NightCase;
using kbtest::four_nights;
using kbtest::night_rows;
using kbtest::records_of;
using kbtest::scaled;
using kbtest::shaped;

TEST(History, RunsInTheOrderTheyRanWithEachCasesMedianAndTheRegression) {
  const History h = history(records_of(four_nights()), {});
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
                            [](const ResultCells& r) {
                              return r.run_id == "epsilon" && r.shape == "1024";
                            }),
             rows.end());
  const History h = history(records_of(rows), {});
  EXPECT_FALSE(h.cases[0].median[1]);
  EXPECT_TRUE(h.cases[0].median[2]);
  EXPECT_EQ(h.runs[1].cases, 1u);
}

TEST(History, OneRunIsAHistoryOfOnePoint) {
  const auto rows = night_rows("only", shaped("1024", kSteadyFive));
  const History h = history(records_of(rows), {});
  ASSERT_EQ(h.runs.size(), 1u);
  EXPECT_DOUBLE_EQ(*h.cases.at(0).median[0], 100);
  EXPECT_TRUE(h.regressions.empty());
}

TEST(History, NoMedianAtAllIsAnInputError) {
  NightCase crashed = shaped("1024", {});
  crashed.status = "crashed";
  EXPECT_THROW(history(records_of(night_rows("n1", crashed)), {}), InputError);
}

}  // namespace
}  // namespace kb
