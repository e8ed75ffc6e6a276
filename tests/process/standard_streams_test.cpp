// kbench started with its standard input, output or error closed (`>&-`, a daemon's start, a
// careless wrapper): the files it opens must never take descriptors 0, 1 or 2, or the table and
// the progress lines meant for the terminal would be appended to the results CSV.
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <string>

namespace {

std::string shell_quote(const std::string& s) {
  std::string quoted = "'";
  for (char ch : s) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return quoted + "'";
}

TEST(StandardStreams, AClosedStandardDescriptorNeverBecomesTheResultsFile) {
  const kbtest::TempFolder folder;
  const std::string csv = folder.file("results.csv");
  const std::string sweep = shell_quote(KBENCH_EXE) + " run --plugin transpose/cpu --sizes 64 " +
                            "--dtypes float32 --max-time 0.01 --output " + shell_quote(csv);
  std::size_t rows = 0;
  for (const std::string closing : {">&-", "2>&-", "<&- >&- 2>&-"}) {
    SCOPED_TRACE(closing);
    const int status =
        std::system((sweep + " --run-id 'closed " + closing + "' >/dev/null 2>&1 " + closing).c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    const std::string content = kbtest::read_file(csv);
    EXPECT_EQ(content.find('|'), std::string::npos) << content;      // no markdown table
    EXPECT_EQ(content.find("time:"), std::string::npos) << content;  // no progress line
    EXPECT_EQ(kb::read_results(csv).size(), ++rows);
  }
}

}  // namespace
