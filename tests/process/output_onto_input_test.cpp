// A file a command writes that is one of the CSV files it reads (by any spelling of its path, or
// a link) is refused before anything is opened: one line naming it, exit 2, the input as it was.
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using kbtest::kbench;
namespace fs = boost::filesystem;

struct Refused {
  std::vector<std::string> args;
  std::string expected;
};

TEST(OutputOntoInput, CompareAndReportNeverWriteOverTheFilesTheyRead) {
  const kbtest::TempFolder folder;
  const std::string base = folder.file("base.csv"), other = folder.file("other.csv");
  auto run = kbench({"run", "--plugin", "transpose/cpu", "--sizes", "64,32", "--dtypes", "float32",
                     "--max-time", "0.01", "--run-id", "base"},
                    base);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  fs::copy_file(base, other);
  const std::string report_dir = folder.file("report");
  fs::create_directories(report_dir);
  const std::string inside = report_dir + "/report.md", history = report_dir + "/history.md";
  const std::string plot_named = report_dir + "/transpose_float32.dat";
  for (const auto& file : {inside, history, plot_named}) fs::copy_file(base, file);
  const std::string spelled = folder.file(".") + "/other.csv";
  const std::vector<Refused> cases = {
      {{"compare", base, other, "--junit", other},
       "--junit '" + other + "' is the input file '" + other + "'"},
      {{"compare", other, "--baseline-run", "base", "--junit", spelled},
       "--junit '" + spelled + "' is the input file '" + other + "'"},
      {{"report", base, "-o", folder.file("out"), "--html", base},
       "--html '" + base + "' is the input file '" + base + "'"},
      {{"report", base, "--history", "-o", folder.file("out"), "--html", base},
       "--html '" + base + "' is the input file '" + base + "'"},
      {{"report", inside, "-o", report_dir},
       "-o '" + inside + "' is the input file '" + inside + "'"},
      {{"report", history, "--history", "-o", report_dir},
       "-o '" + history + "' is the input file '" + history + "'"},
      {{"report", plot_named, "-o", report_dir},
       "-o '" + report_dir + "' holds the input file '" + plot_named +
           "', named as a plot file the report writes there"},
  };
  const std::string content = kbtest::read_file(base);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.expected);
    run = kbench(c.args);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_EQ(run.output, "kbench: error: " + c.expected + "\n");
    for (const auto& file : {base, other, inside, history, plot_named}) {
      EXPECT_TRUE(kbtest::read_file(file) == content) << file << " was changed";
    }
  }
  // Any other file is written.
  run = kbench({"compare", base, other, "--junit", folder.file("verdicts.xml")});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(kbtest::read_file(folder.file("verdicts.xml")).find("<testsuite"), std::string::npos);
}

}  // namespace
