// The red-team corpus run by the real `kbench run`: each cheat of tests/plugins/cheats alone, from
// its own folder, on a case it cheats on. Its row must not be `ok`, and its message must name the
// check that caught it (docs/red-team.md has the table). A cheat the current checks do not catch
// is listed with the reason (`escapes`): while its row is still `ok` the test is skipped with that
// reason, loudly, rather than failed or silently passed; once a fix catches it, it is held to its
// check like the others, and the entry's `escapes` should be removed.
#pragma once

#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace kbtest::red_team {

struct Cheat {
  std::string stem;    // its source file's stem: the folder <test plugins>/cheats/<stem>
  std::string plugin;  // family/strategy
  std::vector<std::string> sweep;         // --sizes, --dtypes, --ops...
  std::vector<std::string> statuses;      // the non-ok statuses it may get
  std::string check;                      // words the row's message must hold
  std::string escapes = "";               // not "": why the current checks let it through
  // Not "": other words that may stand for `check`, for a trick whose timing decides which of two
  // checks sees it first.
  std::string or_check = "";
};

inline std::ostream& operator<<(std::ostream& out, const Cheat& c) { return out << c.plugin; }

// gtest's name for a case: the stem of its source, and the operation where the sweep names one.
inline std::string case_name(const testing::TestParamInfo<Cheat>& info) {
  const auto& sweep = info.param.sweep;
  const auto ops = std::find(sweep.begin(), sweep.end(), "--ops");
  return info.param.stem + (ops != sweep.end() && ops + 1 != sweep.end() ? "_" + *(ops + 1) : "");
}

inline Run run_alone(const Cheat& c) {
  std::vector<std::string> args = {"run",      "--plugins", test_plugin_dir("cheats/" + c.stem),
                                   "--plugin", c.plugin,    "--max-time",
                                   "0.05"};
  args.insert(args.end(), c.sweep.begin(), c.sweep.end());
  return kbench(args);
}

// The whole test of one cheat.
inline void expect_caught(const Cheat& c) {
  const Run run = run_alone(c);
  ASSERT_EQ(run.rows.size(), 1u) << run.output << run.csv_error;
  const Row& row = run.rows.front();
  const std::string& status = row.at("status");
  const std::string& message = row.at("message");
  if (status == "ok" && !c.escapes.empty()) {
    GTEST_SKIP() << "KNOWN ESCAPE: " << c.plugin << " is `ok` (" << row.at("median_us")
                 << " us): " << c.escapes;
  }
  EXPECT_NE(std::find(c.statuses.begin(), c.statuses.end(), status), c.statuses.end())
      << c.plugin << " got '" << status << "': " << message << "\n" << run.output;
  const bool named = message.find(c.check) != std::string::npos ||
                     (!c.or_check.empty() && message.find(c.or_check) != std::string::npos);
  EXPECT_TRUE(named) << c.plugin << " got '" << status << "' but not from \"" << c.check << "\""
                     << (c.or_check.empty() ? "" : " or \"" + c.or_check + "\"") << ": " << message;
  EXPECT_EQ(run.exit_code, 1) << run.output;
}

// A cheat whose trick the checks took away: it can no longer tell the launches it could cheat on
// from the ones it is judged on, so it does the whole work on every one. Its row is `ok`, and the
// figures of its checked timed launches show it: exact (tolerance 0, error 0).
inline void expect_forced_honest(const Cheat& c) {
  const Run run = run_alone(c);
  ASSERT_EQ(run.rows.size(), 1u) << run.output << run.csv_error;
  const Row& row = run.rows.front();
  EXPECT_EQ(row.at("status"), "ok") << row.at("message") << run.output;
  EXPECT_EQ(row.at("tolerance"), "0") << run.output;
  EXPECT_EQ(row.at("max_rel_error"), "0") << run.output;
}

// An honest strategy written the same way: the checks must leave it `ok`.
inline void expect_ok(const Cheat& c) {
  const Run run = run_alone(c);
  ASSERT_EQ(run.rows.size(), 1u) << run.output << run.csv_error;
  EXPECT_EQ(run.rows.front().at("status"), "ok") << run.rows.front().at("message") << run.output;
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

}  // namespace kbtest::red_team
