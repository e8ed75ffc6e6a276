// A results file its readers would call corrupt (a row of other cells, a quote left open, a NUL
// byte) is refused by every command that would write to it, in one line naming the file and the
// line, exit 2, not a byte changed: appending rows after it hid them from every reader.
#include "store/result_columns.hpp"
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {

using kbtest::kbench;
using kbtest::read_file;
namespace fs = boost::filesystem;
using Args = std::vector<std::string>;

const Args kRun = {"run", "--plugin", "transpose/cpu", "--sizes", "16", "--max-time", "0.01"};

// The lines of `output` other than notes: what a refusal said.
std::string said(const std::string& output) {
  std::istringstream lines(output);
  std::string line, rest;
  while (std::getline(lines, line)) {
    if (line.rfind("kbench: note:", 0) != 0) rest += line + "\n";
  }
  return rest;
}

class CorruptResultsFile : public ::testing::Test {
 protected:
  // A results file of this kbench: the header and two rows (lines 2 and 3).
  std::string valid_file() {
    const std::string path = folder_.file("valid.csv");
    if (!fs::exists(path)) {
      Args args = kRun;
      args.insert(args.end(), {"--run-id", "base"});
      const auto run = kbench(args, path);
      EXPECT_EQ(run.exit_code, 0) << run.output;
    }
    return read_file(path);
  }
  // Line `n` (from 1) of `text`, without its line feed.
  static std::string line_of(const std::string& text, int n) {
    std::istringstream lines(text);
    std::string line;
    for (int i = 0; i < n; ++i) std::getline(lines, line);
    return line;
  }

  kbtest::TempFolder folder_;
};

TEST_F(CorruptResultsFile, ARunWithoutARunIdRefusesItUntouched) {
  const std::string valid = valid_file();
  const std::string row = line_of(valid, 2);
  const std::string with_nul = row.substr(0, 30) + std::string(3, '\0') + row.substr(30);
  const std::string opened = row.substr(0, row.find(",ok,") + 1) + "\"" +
                             row.substr(row.find(",ok,") + 1);
  const std::string header = ", its header " + std::to_string(kb::kResultColumnCount);
  const struct {
    std::string name, text, fault;
  } cases[] = {
      {"quote.csv", valid + opened + "\n", "line 4 opens a quoted cell that no line closes"},
      {"quote-then-row.csv", valid + opened + "\n" + row + "\n",
       "line 4 opens a quoted cell that no line closes"},
      {"extra.csv", valid + row + ",extra\n", "line 4 has " + std::to_string(kb::kResultColumnCount + 1) + " cells" + header},
      {"fewer.csv", valid + "x,y,z\n" + row + "\n", "line 4 has 3 cells" + header},
      {"nul.csv", valid + with_nul + "\n" + row + "\n", "line 4 holds a NUL byte"},
  };
  for (const auto& c : cases) {
    const std::string path = folder_.file(c.name);
    { std::ofstream(path, std::ios::binary) << c.text; }
    const auto run = kbench(kRun, path);
    EXPECT_EQ(run.exit_code, 2) << c.name << "\n" << run.output;
    EXPECT_EQ(said(run.output), "kbench: error: results file '" + path + "' is corrupt: " +
                                    c.fault + "; left as it is (write to another file, or mend "
                                    "this one)\n")
        << c.name;
    EXPECT_EQ(read_file(path), c.text) << c.name;
    EXPECT_FALSE(fs::exists(path + ".fragments")) << c.name;
  }
}

// A file refused for its header (or for a corrupt row) is refused before anything would repair
// it: its torn last line stays, no line feed is added, nothing goes to FILE.fragments, and the
// refusal is the one line said.
TEST_F(CorruptResultsFile, AFileRefusedIsRefusedBeforeItsLastLineIsRepaired) {
  const std::string valid = valid_file();
  std::string crlf;
  for (const char ch : valid) crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  std::string random_bytes;
  for (unsigned state = 1; random_bytes.size() < 5000;) {
    state = state * 1103515245u + 12345u;
    const char ch = static_cast<char>(state >> 16);
    if (ch != '\n') random_bytes += ch;
  }
  const std::string last_column = kb::kResultHeader.back();
  const std::string older_header = valid.substr(0, valid.find("," + last_column + "\n")) + "\n";
  const std::string torn = line_of(valid, 2).substr(0, 40);
  const struct {
    std::string name, text, refusal;
  } cases[] = {
      {"foreign.csv", "a,b,c\n1,2,3\n4,5", "has a different header (column 1 is 'a', expected "
                                            "'timestamp_utc')"},
      {"random.csv", random_bytes, "has a different header (column 1 is "},
      {"crlf.csv", crlf.substr(0, crlf.size() - 2), "has a different header (column " +
                                                        std::to_string(kb::kResultColumnCount) +
                                                        " is '" + last_column + "\\r'"},
      {"older.csv", older_header + torn,
       "was written by an older kbench (it lacks column " + last_column + ")"},
      {"corrupt.csv", valid + "x,y,z\n" + torn, "is corrupt: line 4 has 3 cells"},
  };
  for (const auto& c : cases) {
    const std::string path = folder_.file(c.name);
    { std::ofstream(path, std::ios::binary) << c.text; }
    const auto run = kbench(kRun, path);
    EXPECT_EQ(run.exit_code, 2) << c.name << "\n" << run.output;
    EXPECT_EQ(said(run.output).rfind("kbench: error: results file '" + path + "' " + c.refusal, 0),
              0u)
        << c.name << "\n" << run.output;
    EXPECT_EQ(kbtest::count_lines(said(run.output)), 1) << c.name << "\n" << run.output;
    EXPECT_EQ(read_file(path), c.text) << c.name;
    EXPECT_FALSE(fs::exists(path + ".fragments")) << c.name;
  }
}

}  // namespace
