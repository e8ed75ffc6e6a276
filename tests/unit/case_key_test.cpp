// What identifies a case within a run, for --resume and for refusing duplicate rows.
#include "store/case_key.hpp"

#include <gtest/gtest.h>

namespace {

TEST(CaseKey, HoldsEveryColumnThatDefinesACase) {
  kb::ResultRow row;
  for (const char* column : kb::kCaseKeyColumns) row.set(column, std::string(column) + "-value");
  row.set("device", "1");
  row.set("median_us", "3.5");
  const kb::CaseKey key(row, false);
  for (const char* column : kb::kCaseKeyColumns) {
    kb::ResultRow other = row;
    other.set(column, "different");
    EXPECT_FALSE(kb::CaseKey(other, false) == key) << column << " is not part of the key";
  }
  kb::ResultRow remeasured = row;
  remeasured.set("median_us", "4.5");
  remeasured.set("timestamp_utc", "later");
  EXPECT_TRUE(kb::CaseKey(remeasured, false) == key);
  // With --split a CUDA case may run on any device; a host case stays a host case.
  kb::ResultRow elsewhere = row;
  elsewhere.set("device", "0");
  EXPECT_TRUE(kb::CaseKey(elsewhere, true) == kb::CaseKey(row, true));
  EXPECT_FALSE(kb::CaseKey(elsewhere, false) == kb::CaseKey(row, false));
  row.set("device", "host");
  EXPECT_NE(kb::CaseKey(row, true).describe().find("host"), std::string::npos);
}

}  // namespace
