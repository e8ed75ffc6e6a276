// The columns that identify a case, for each question asked of them, and the key --resume and the
// refusal of duplicate rows use within a run.
#include "store/case_columns.hpp"
#include "store/case_key.hpp"

#include <gtest/gtest.h>

namespace {

using Names = std::vector<std::string>;

TEST(CaseColumns, EachQuestionTakesItsColumnsInTheOneOrder) {
  EXPECT_EQ(kb::kComparedCase.names(),
            (Names{"gpu", "family", "plugin", "dtype", "op", "shape", "block", "params", "cache"}));
  EXPECT_EQ(kb::kCaseInRun.names(),
            (Names{"device", "plugin", "plugin_version", "dtype", "op", "shape", "block", "params",
                   "seed", "cache", "repetition"}));
  EXPECT_EQ(kb::kSampleCase.names(),
            (Names{"run_id", "gpu_uuid", "device", "plugin", "dtype", "op", "shape", "block",
                   "params", "cache", "repetition"}));
  EXPECT_EQ(kb::kTuningProblem.names(),
            (Names{"run_id", "gpu_name", "device", "plugin", "plugin_version", "dtype", "op",
                   "shape", "seed", "cache"}));
  EXPECT_EQ(kb::kShownWhereTheyDiffer.names(), (Names{"gpu", "op", "params", "cache"}));
}

TEST(CaseKey, HoldsEveryColumnThatDefinesACase) {
  kb::ResultCells row;
  for (const kb::CaseColumn column : kb::kCaseInRun.list()) {
    const char* name = kb::column_name(column);
    kb::cell_at(row, kb::column_of(name)) = std::string(name) + "-value";
  }
  row.device = "1";
  row.median_us = "3.5";
  const kb::CaseKey key(kb::record_of(row), false);
  for (const kb::CaseColumn column : kb::kCaseInRun.list()) {
    kb::ResultCells other = row;
    kb::cell_at(other, kb::column_of(kb::column_name(column))) = "different";
    EXPECT_FALSE(kb::CaseKey(kb::record_of(other), false) == key)
        << kb::column_name(column) << " is not part of the key";
  }
  kb::ResultCells remeasured = row;
  remeasured.median_us = "4.5";
  remeasured.timestamp_utc = "later";
  EXPECT_TRUE(kb::CaseKey(kb::record_of(remeasured), false) == key);
  // With --split a CUDA case may run on any device; a host case stays a host case.
  kb::ResultCells elsewhere = row;
  elsewhere.device = "0";
  EXPECT_TRUE(kb::CaseKey(kb::record_of(elsewhere), true) == kb::CaseKey(kb::record_of(row), true));
  EXPECT_FALSE(kb::CaseKey(kb::record_of(elsewhere), false) ==
               kb::CaseKey(kb::record_of(row), false));
  kb::ResultCells on_host = row;
  on_host.device = "host";
  EXPECT_FALSE(kb::CaseKey(kb::record_of(on_host), true) == kb::CaseKey(kb::record_of(row), true));
}

}  // namespace
