// `kbench upgrade FILE...` on real files: an older kbench's results or samples file takes this
// kbench's header with every byte of its rows kept, and then a run's rows; anything else is
// refused with one line and left as it is; the lock a run takes is honoured; a full disk leaves
// the file as it was.
#include "store/file_lock.hpp"
#include "store/file_schema.hpp"
#include "store/results_store.hpp"
#include "store/run_lock.hpp"
#include "support/kbench_process.hpp"
#include "util/csv.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <thread>

namespace {

using kbtest::kbench;
using kbtest::read_file;
namespace fs = boost::filesystem;
using Names = std::vector<std::string>;

// The fields of one CSV record as written (quotes kept), split at the commas outside quotes.
Names raw_fields(const std::string& record) {
  Names fields(1);
  bool quoted = false;
  for (char ch : record) {
    if (ch == '"') quoted = !quoted;
    if (ch == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += ch;
    }
  }
  return fields;
}

// The records of a file (a line break inside quotes stays in its record), without line feeds.
Names records_of(const std::string& text) {
  Names records(1);
  bool quoted = false;
  for (char ch : text) {
    if (ch == '"') quoted = !quoted;
    if (ch == '\n' && !quoted) {
      records.emplace_back();
    } else {
      records.back() += ch;
    }
  }
  if (records.back().empty()) records.pop_back();
  return records;
}

std::string joined(const Names& fields) {
  std::string text;
  for (std::size_t i = 0; i < fields.size(); ++i) text += (i ? "," : "") + fields[i];
  return text;
}

// The columns after the first `kept` of today's header, as `upgrade` names them ("a, b, c").
std::string added_after(std::size_t kept) {
  const Names& header = kb::results_schema().header;
  std::string text;
  for (std::size_t i = kept; i < header.size(); ++i) text += (text.empty() ? "" : ", ") + header[i];
  return text;
}

// The last three columns, which the older file of the tests below lacks.
const std::size_t kOlderColumns = kb::kResultColumnCount - 3;

// The files in a folder, by name: nothing left behind (no temporary copy) where none should be.
std::set<std::string> files_in(const fs::path& folder) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

class Upgrade : public ::testing::Test {
 protected:
  static Names sweep(const std::string& sizes = "10,20,30") {
    return {"run", "--plugins", kbtest::test_plugin_dir("faulty"), "--plugin", "testing/good",
            "--sizes", sizes, "--dtypes", "int32", "--min-samples", "1", "--max-time", "0.001"};
  }

  // A results file as the kbench before the last three columns wrote it: a real run's rows, less
  // those three (empty for a host plugin), and a row whose quoted message
  // holds a comma, doubled quotes and a line break written as kbench writes one (\n).
  std::string older_results_file(const std::string& name) {
    const std::string path = folder_.file(name);
    const auto run = kbench(sweep(), path);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    std::string older;
    for (const auto& record : records_of(read_file(path))) {
      Names fields = raw_fields(record);
      EXPECT_EQ(fields.size(), kb::kResultColumnCount);
      const Names& header = kb::results_schema().header;
      const Names last_three = older.empty() ? Names(header.begin() + kOlderColumns, header.end())
                                             : Names{"", "", ""};
      EXPECT_EQ(Names(fields.end() - 3, fields.end()), last_three) << record;
      fields.resize(fields.size() - 3);
      older += joined(fields) + "\n";
    }
    Names quoted = raw_fields(records_of(older)[1]);
    quoted[1] = "another-run";
    quoted[kb::column_of("message")] = "\"first line\\nsecond, with \"\"quotes\"\"\"";
    older += joined(quoted) + "\n";
    { std::ofstream(path, std::ios::trunc | std::ios::binary) << older; }
    return path;
  }

  kbtest::TempFolder folder_;
};

// The file of an older kbench, refused by a run with the command that fixes it; upgraded, every
// old line is its new line less the three empty cells added at its end (a quoted message too);
// then a run appends to it, and every row reads back.
TEST_F(Upgrade, AnOlderResultsFileTakesTheNewColumnsAndThenARunsRows) {
  const std::string path = older_results_file("results.csv");
  const std::string before = read_file(path);
  auto run = kbench(sweep("40"), path);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("kbench: error: results file '" + path + "' was written by an older "
                            "kbench (it lacks columns " + added_after(kOlderColumns) + "); `kbench "
                            "upgrade " + path + "` adds them\n"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(read_file(path), before);

  run = kbench({"upgrade", path});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output, "upgraded " + path + ": added columns " + added_after(kOlderColumns) +
                        " (4 rows)\n");
  const std::string after = read_file(path);
  const Names old_records = records_of(before), new_records = records_of(after);
  ASSERT_EQ(new_records.size(), old_records.size());
  EXPECT_EQ(new_records[0] + "\n", kb::header_line());
  std::string expected = kb::header_line();
  for (std::size_t i = 1; i < old_records.size(); ++i) expected += old_records[i] + ",,,\n";
  EXPECT_EQ(after, expected);  // every byte: the old text, three commas before each line feed
  EXPECT_EQ(files_in(folder_.path()), (std::set<std::string>{"results.csv"}));
  ASSERT_EQ(kb::read_results(path).size(), 4u);
  EXPECT_EQ(kb::read_results(path)[3].message, "first line\nsecond, with \"quotes\"");

  run = kbench(sweep("40"), path);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run.rows.size(), 5u) << run.csv_error;
  EXPECT_EQ(run.rows[4]["shape"], "40");
  EXPECT_EQ(read_file(path).substr(0, after.size()), after);
}

// A quoted cell holding a line break is one cell of one record: the new cells go after its
// closing quote, not after the line break.
TEST_F(Upgrade, AQuotedCellHoldingALineBreakKeepsItsBytes) {
  const std::string path = folder_.file("quoted.csv");
  const Names header = kb::results_schema().header;
  const Names old(header.begin(), header.begin() + 60);
  Names row(old.size(), "");
  row[1] = "r";
  row[17] = "testing/good";
  row[kb::column_of("message")] = "\"one\ntwo, \"\"three\"\"\n\"";
  const std::string text = joined(old) + "\n" + joined(row) + "\n" + joined(row) + "\n";
  { std::ofstream(path, std::ios::binary) << text; }
  const auto run = kbench({"upgrade", path});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output, "upgraded " + path + ": added columns " + added_after(60) + " (2 rows)\n");
  const std::string new_cells(header.size() - 60, ',');
  EXPECT_EQ(read_file(path),
            kb::header_line() + joined(row) + new_cells + "\n" + joined(row) + new_cells + "\n");

  // Cut inside such a cell, on the line after its first line break (the record starts on line 8:
  // each row above spans three): the whole record is the fragment, both of its lines, not only the
  // part after the last line feed. (Cut right after the line break, the file would end in a line
  // feed inside quotes: no line of it torn, a quote no line closes, refused.)
  const std::string whole = joined(row);
  const std::string torn = whole.substr(0, whole.find("two") + 2);
  { std::ofstream(path, std::ios::trunc | std::ios::binary) << text << torn; }
  const auto again = kbench({"upgrade", path});
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("line 8 was incomplete (a writer was interrupted); moved its " +
                              std::to_string(torn.size()) + " bytes"),
            std::string::npos)
      << again.output;
  EXPECT_EQ(read_file(path + ".fragments"), torn + "\n");
  EXPECT_EQ(read_file(path),
            kb::header_line() + joined(row) + new_cells + "\n" + joined(row) + new_cells + "\n");
}

// Headers of before the results header grew only at the end had columns inserted mid-way: every
// committed results file (results/, checks/, archive/: four older headers) upgrades with each old
// cell's bytes where its column now is and the new cells empty, and reads back as it read before.
TEST_F(Upgrade, EveryCommittedResultsFileKeepsEachCellAndReadsAsBefore) {
  const Names header = kb::results_schema().header;
  int upgraded = 0, midway = 0;
  for (const auto& entry :
       fs::recursive_directory_iterator(fs::path(KBENCH_SOURCE_DIR) / "results")) {
    if (entry.path().extension() != ".csv") continue;
    const std::string path = folder_.file(entry.path().filename().string());
    fs::copy_file(entry.path(), path, fs::copy_option::overwrite_if_exists);
    const std::string before = read_file(path);
    const Names old_header = kb::header_names(before.substr(0, before.find('\n')));
    const auto run = kbench({"upgrade", path});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    if (old_header == header) {
      EXPECT_EQ(read_file(path), before);
      continue;
    }
    ++upgraded;
    const bool prefix = std::equal(old_header.begin(), old_header.end(), header.begin());
    if (!prefix) ++midway;
    const std::string after = read_file(path);
    const Names old_records = records_of(before), new_records = records_of(after);
    ASSERT_EQ(new_records.size(), old_records.size()) << path;
    EXPECT_EQ(new_records[0] + "\n", kb::header_line());
    for (std::size_t i = 1; i < old_records.size(); ++i) {
      const Names old_cells = raw_fields(old_records[i]), new_cells = raw_fields(new_records[i]);
      ASSERT_EQ(new_cells.size(), header.size()) << path << " row " << i;
      Names kept;
      for (std::size_t c = 0; c < header.size(); ++c) {
        const bool old_column =
            std::find(old_header.begin(), old_header.end(), header[c]) != old_header.end();
        if (old_column) kept.push_back(new_cells[c]);
        else EXPECT_EQ(new_cells[c], "") << path << " row " << i << " " << header[c];
      }
      EXPECT_EQ(kept, old_cells) << path << " row " << i;
    }
    // A prefix of today's header: each old line a prefix of its new line, commas added.
    for (std::size_t i = 1; prefix && i < old_records.size(); ++i) {
      EXPECT_EQ(new_records[i],
                old_records[i] + std::string(header.size() - old_header.size(), ','));
    }
    // What compare, report and --resume read: the same rows, cell for cell.
    const auto old_rows = kb::read_results(entry.path().string());
    const auto new_rows = kb::read_results(path);
    ASSERT_EQ(new_rows.size(), old_rows.size());
    for (std::size_t i = 0; i < old_rows.size(); ++i) {
      EXPECT_EQ(kb::cells_in_order(new_rows[i]), kb::cells_in_order(old_rows[i])) << path << " row " << i;
    }
  }
  EXPECT_GE(upgraded, 10);
  EXPECT_GE(midway, 5);  // results/archive: headers with columns inserted since mid-way
}

// A foreign CSV, a header with two columns swapped, an unknown column, a newer kbench's: one
// line naming the file and the first difference, exit 2, not a byte changed, nothing left beside.
TEST_F(Upgrade, AHeaderNoKbenchWroteIsRefusedAndTheFileLeftAsItIs) {
  const Names header = kb::results_schema().header;
  Names swapped = header, unknown(header.begin(), header.begin() + 60), newer = header;
  std::swap(swapped[2], swapped[3]);
  unknown[40] = "host_time";
  newer.push_back("a_future_column");
  const struct {
    std::string name, text, difference;
  } cases[] = {
      {"foreign.csv", "x,y\n1,2\n", "against a results file's header: column 1 is 'x', expected "
                                    "'timestamp_utc'"},
      {"swapped.csv", joined(swapped) + "\n", "against a results file's header: column 3 is "
                                              "'kbench_version', expected 'host'"},
      {"unknown.csv", joined(unknown) + "\n" + std::string(59, ',') + "\n",
       "against a results file's header: column 41 is 'host_time', expected 'host_us'"},
      {"newer.csv", joined(newer) + "\n", "against a results file's header: it has " +
                                              std::to_string(newer.size()) + " columns, expected " +
                                              std::to_string(header.size())},
      {"samples.csv", "run_id,gpu_uuid,device,plugin,dtype,op,shape,block,repetition,sample,us\n",
       "against a samples file's header: column 9 is 'repetition', expected 'params'"},
  };
  for (const auto& c : cases) {
    const std::string path = folder_.file(c.name);
    { std::ofstream(path, std::ios::binary) << c.text; }
    const auto run = kbench({"upgrade", path});
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_EQ(run.output, "kbench: error: '" + path + "' is no results or samples file of an "
                          "older kbench (" + c.difference + "); left as it is\n");
    EXPECT_EQ(read_file(path), c.text);
  }
  EXPECT_EQ(files_in(folder_.path()).size(), std::size(cases));
}

// Upgrading twice is upgrading once: the second says so and leaves the file (the same inode, the
// same bytes); so does a file this kbench wrote.
TEST_F(Upgrade, IsIdempotent) {
  const std::string path = older_results_file("results.csv");
  ASSERT_EQ(kbench({"upgrade", path}).exit_code, 0);
  const std::string once = read_file(path);
  const auto mode = fs::status(path).permissions();
  struct stat first {};
  ::stat(path.c_str(), &first);
  const auto run = kbench({"upgrade", path});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output,
            path + ": already current (a results file of this kbench); left as it is\n");
  struct stat second {};
  ::stat(path.c_str(), &second);
  EXPECT_EQ(second.st_ino, first.st_ino);
  EXPECT_EQ(read_file(path), once);
  EXPECT_EQ(fs::status(path).permissions(), mode);
}

// A torn last line (a writer killed mid-row) goes to FILE.fragments and is said, as a run's repair
// moves it; a whole last row that only lacks its line feed is kept and gets one.
TEST_F(Upgrade, ATornLastLineIsMovedAsideAsARunMovesItAndAWholeOneKept) {
  const std::string path = older_results_file("results.csv");
  const std::string whole = read_file(path);
  const Names records = records_of(whole);
  const std::string torn = records[1].substr(0, records[1].size() / 2);
  { std::ofstream(path, std::ios::app | std::ios::binary) << torn; }
  auto run = kbench({"upgrade", path});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("kbench: results file '" + path + "': line 6 was incomplete (a writer "
                            "was interrupted); moved its " + std::to_string(torn.size()) +
                            " bytes to '" + path + ".fragments'\n"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("upgraded " + path + ": added columns " + added_after(kOlderColumns) +
                            " (4 rows)\n"),
            std::string::npos);
  EXPECT_EQ(read_file(path + ".fragments"), torn + "\n");
  std::string expected = kb::header_line();
  for (std::size_t i = 1; i < records.size(); ++i) expected += records[i] + ",,,\n";
  EXPECT_EQ(read_file(path), expected);

  // The whole file again, its last line feed taken off: that row is kept.
  fs::remove(path + ".fragments");
  { std::ofstream(path, std::ios::trunc | std::ios::binary) << whole.substr(0, whole.size() - 1); }
  run = kbench({"upgrade", path});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("lacked its final newline; added it"), std::string::npos);
  EXPECT_EQ(read_file(path), expected);
  EXPECT_FALSE(fs::exists(path + ".fragments"));
}

// Only a torn last line is repairable: a corrupt record before it (a NUL byte, which the readers
// take for a line's end; a quote no line closes, a valid row after it or not; a row of other
// cells) is refused, one line naming the file and the line, exit 2, not a byte changed.
TEST_F(Upgrade, ACorruptOlderFileIsRefusedAndLeftAsItIs) {
  const std::string older = read_file(older_results_file("older.csv"));
  const Names records = records_of(older);
  ASSERT_EQ(records.size(), 5u);
  const std::string row = records[1];
  const std::string opened = row.substr(0, row.find(",ok,") + 1) + "\"" +
                             row.substr(row.find(",ok,") + 1);
  std::string with_nul = older;
  with_nul[with_nul.find(row) + 30] = '\0';
  const std::string cells = " cells, its header " + std::to_string(kOlderColumns);
  const struct {
    std::string name, text, fault;
  } cases[] = {
      {"nul.csv", with_nul, "line 2 holds a NUL byte"},
      {"quote-then-row.csv", older + opened + "\n" + row + "\n",
       "line 6 opens a quoted cell that no line closes"},
      {"quote.csv", older + opened + "\n", "line 6 opens a quoted cell that no line closes"},
      {"quote-then-torn.csv", older + opened + "\n" + row + "\n" + row.substr(0, 40),
       "line 6 opens a quoted cell that no line closes"},
      {"extra.csv", older + row + ",extra\n",
       "line 6 has " + std::to_string(kOlderColumns + 1) + cells},
  };
  for (const auto& c : cases) {
    const std::string path = folder_.file(c.name);
    { std::ofstream(path, std::ios::binary) << c.text; }
    const auto run = kbench({"upgrade", path});
    EXPECT_EQ(run.exit_code, 2) << c.name << "\n" << run.output;
    EXPECT_EQ(run.output,
              "kbench: error: results file '" + path + "': " + c.fault + "; left as it is\n")
        << c.name;
    EXPECT_EQ(read_file(path), c.text) << c.name;
    EXPECT_FALSE(fs::exists(path + ".fragments")) << c.name;
  }
}

// An append in progress holds the file's lock: the upgrade waits for it, then upgrades. A run
// holding a run lock on the file (a run with a --run-id of an older kbench, appending to it now)
// is not waited for (it may last hours): the upgrade is refused, the file left as it is.
TEST_F(Upgrade, WaitsForAnAppendInProgressAndRefusesAFileARunIsWriting) {
  const std::string path = older_results_file("results.csv");
  const std::string before = read_file(path);
  {
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    ASSERT_TRUE(kb::lock_byte(fd, kb::kAppendLockByte, true));
    const std::string log = folder_.file("upgrade.log");
    const pid_t pid = kbtest::spawn_kbench({"upgrade", path}, log);
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    int status = 0;
    EXPECT_EQ(::waitpid(pid, &status, WNOHANG), 0) << "the upgrade did not wait for the lock";
    EXPECT_EQ(read_file(path), before);
    ::close(fd);
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << read_file(log);
    EXPECT_EQ(read_file(log), "upgraded " + path + ": added columns " +
                              added_after(kOlderColumns) + " (4 rows)\n");
    fs::remove(log);
  }
  const std::string older = folder_.file("older.csv");
  { std::ofstream(older, std::ios::binary) << before; }
  {
    const kb::RunLock night(older, "night-1", "");
    const auto run = kbench({"upgrade", older});
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_EQ(run.output, "kbench: error: results file '" + older + "' is being written by a run "
                          "(it holds a run lock on the file); upgrade it when the run has ended. "
                          "Left as it is\n");
    EXPECT_EQ(read_file(older), before);
  }
  EXPECT_EQ(kbench({"upgrade", older}).exit_code, 0);
  EXPECT_EQ(read_file(older), read_file(path));
}

// The disk fills while the upgraded copy is written: exit 4, one line, the file as it was and no
// copy left beside it.
TEST_F(Upgrade, AFullDiskLeavesTheFileAsItWasAndExitsFour) {
  const std::string path = older_results_file("results.csv");
  const std::string before = read_file(path);
  const auto files = files_in(folder_.path());
  setenv("KBENCH_TEST_WRITE_LIMIT", std::to_string(before.size() / 2).c_str(), 1);
  const auto run = kbench({"upgrade", path});
  unsetenv("KBENCH_TEST_WRITE_LIMIT");
  EXPECT_EQ(run.exit_code, 4) << run.output;
  EXPECT_EQ(run.output.rfind("kbench: cannot write the upgraded copy of results file '" + path +
                             "' ('" + folder_.file(".results.csv.upgrade-"), 0),
            0u)
      << run.output;
  EXPECT_NE(run.output.find("'): No space left on device; the file is as it was\n"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(kbtest::count_lines(run.output), 1);
  EXPECT_EQ(read_file(path), before);
  EXPECT_EQ(files_in(folder_.path()), files);
}

// A file-size limit (`ulimit -f`) below the upgraded copy's size fails its write (EFBIG) as a full
// disk does, instead of SIGXFSZ ending kbench without a line and leaving the copy behind.
TEST_F(Upgrade, AFileSizeLimitLeavesTheFileAsItWasAndExitsFour) {
  const std::string path = older_results_file("results.csv");
  const std::string before = read_file(path);
  const auto files = files_in(folder_.path());
  kbtest::Run run;
  {
    const kbtest::FileSizeLimit limit(before.size() / 2);
    run = kbench({"upgrade", path});
  }
  EXPECT_EQ(run.exit_code, 4) << run.output;
  EXPECT_NE(run.output.find("'): File too large; the file is as it was\n"), std::string::npos)
      << run.output;
  EXPECT_EQ(kbtest::count_lines(run.output), 1);
  EXPECT_EQ(read_file(path), before);
  EXPECT_EQ(files_in(folder_.path()), files);
}

// SIGTERM or SIGHUP while the upgraded copy is written left the copy beside the file: the copy is
// now renamed or removed first, then the command ends with a line and exit 130.
TEST_F(Upgrade, ASignalDuringTheCopyLeavesNoCopyBehind) {
  const std::string path = older_results_file("results.csv");
  std::string rows;
  for (const auto& record : records_of(read_file(path))) rows += record + "\n";
  const std::string header = rows.substr(0, rows.find('\n') + 1);
  const std::string body = rows.substr(header.size());
  std::string big = header;
  while (big.size() < (64u << 20)) big += body;  // long enough to be caught writing its copy
  for (const int sig : {SIGTERM, SIGHUP}) {
    SCOPED_TRACE(sig);
    { std::ofstream(path, std::ios::trunc | std::ios::binary) << big; }
    const std::string log = folder_.file("log");
    auto files = files_in(folder_.path());
    files.insert("log");
    const pid_t pid = kbtest::spawn_kbench({"upgrade", path}, log);
    bool copying = false;
    for (int i = 0; i < 20000 && !copying; ++i) {
      for (const auto& name : files_in(folder_.path())) {
        copying = copying || name.rfind(".results.csv.upgrade-", 0) == 0;
      }
      if (!copying) std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    ASSERT_TRUE(copying) << "the copy was never seen";
    kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 130);
    EXPECT_NE(read_file(log).find("kbench: interrupted"), std::string::npos) << read_file(log);
    EXPECT_EQ(files_in(folder_.path()), files);  // no copy left
    EXPECT_EQ(kb::read_results(path).size(), kbtest::count_lines(big) - 1u);
  }
}

// The samples file of --samples-out has a header of its own, whose case columns grew mid-way
// (params, repetition before sample and us): an older one is refused by a run, upgraded with the
// new cells where the header has them, and appended to.
TEST_F(Upgrade, AnOlderSamplesFileIsUpgradedToo) {
  const std::string results = folder_.file("results.csv"), samples = folder_.file("samples.csv");
  auto args = sweep("10,20");
  args.insert(args.end(), {"--samples-out", samples});
  ASSERT_EQ(kbench(args, results).exit_code, 0);
  // As the kbench before --repetitions and params wrote it.
  std::string older;
  std::size_t rows = 0;
  for (const auto& record : records_of(read_file(samples))) {
    Names fields = raw_fields(record);
    ASSERT_EQ(fields.size(), 13u);
    fields.erase(fields.begin() + 10);  // repetition
    fields.erase(fields.begin() + 8);   // params
    older += joined(fields) + "\n";
    ++rows;
  }
  --rows;  // the header
  { std::ofstream(samples, std::ios::trunc | std::ios::binary) << older; }
  auto run = kbench(args, results);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("samples file '" + samples + "' was written by an older kbench (it "
                            "lacks columns params, repetition); `kbench upgrade " + samples +
                            "` adds them"),
            std::string::npos)
      << run.output;
  run = kbench({"upgrade", samples});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output, "upgraded " + samples + ": added columns params, repetition (" +
                            std::to_string(rows) + " rows)\n");
  std::string expected;
  for (const auto& record : records_of(older)) {
    Names fields = raw_fields(record);
    fields.insert(fields.begin() + 8, expected.empty() ? "params" : "");
    fields.insert(fields.begin() + 10, expected.empty() ? "repetition" : "");
    expected += joined(fields) + "\n";
  }
  EXPECT_EQ(read_file(samples), expected);
  run = kbench(args, results);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(read_file(samples).substr(0, expected.size()), expected);
  EXPECT_GT(read_file(samples).size(), expected.size());
}

// Through a symbolic link the file it names is upgraded and the link kept; a file with another
// hard link is refused (the rename would leave the other name on the old file). The file's
// permissions are kept.
TEST_F(Upgrade, KeepsLinksAndPermissionsAndRefusesAFileWithAnotherHardLink) {
  const std::string path = older_results_file("results.csv");
  ::chmod(path.c_str(), 0640);
  const std::string link = folder_.file("link.csv");
  fs::create_symlink(path, link);
  auto run = kbench({"upgrade", link});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_file(path).substr(0, kb::header_line().size()), kb::header_line());
  EXPECT_EQ(fs::status(path).permissions(), fs::perms(0640));

  const std::string older = older_results_file("older.csv"), twin = folder_.file("twin.csv");
  const std::string before = read_file(older);
  fs::create_hard_link(older, twin);
  run = kbench({"upgrade", older});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("has 2 hard links"), std::string::npos) << run.output;
  EXPECT_EQ(read_file(older), before);
}

// Several files: one line each, the others upgraded whatever one of them is; the exit code the
// worst (2 for a file left as it is). No file named: exit 2.
TEST_F(Upgrade, SeveralFilesOneLineEachAndTheWorstExitCode) {
  const std::string a = older_results_file("a.csv"), b = older_results_file("b.csv");
  const std::string foreign = folder_.file("foreign.csv"), missing = folder_.file("missing.csv");
  { std::ofstream(foreign) << "x\n"; }
  auto run = kbench({"upgrade", a, foreign, missing, b});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_EQ(kbtest::count_lines(run.output), 4) << run.output;
  EXPECT_NE(run.output.find("upgraded " + a + ": "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("upgraded " + b + ": "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("kbench: error: cannot open file '" + missing + "'"),
            std::string::npos)
      << run.output;
  run = kbench({"upgrade"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.output, "kbench: error: name the results or samples files to upgrade\n");
}

}  // namespace
