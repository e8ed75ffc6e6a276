#include "store/csv_records.hpp"
#include "store/record_reader.hpp"
#include "store/result_record.hpp"
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"
#include "util/csv.hpp"
#include "util/input_error.hpp"

#include <gtest/gtest.h>

#include <boost/filesystem.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>

namespace kb {
namespace {

namespace fs = boost::filesystem;

// The byte scanner behind a last row's judgement and `kbench upgrade`: fields as written, a
// quoted line break inside one record, a doubled quote inside a quoted field, and a last record
// that lacks its line feed or its closing quote.
TEST(CsvRecords, FieldsAsWrittenAndHowEachRecordEnds) {
  const std::string text = "a,\"b,1\"\n\"x\ny\",\"say \"\"hi\"\"\"\nlast,\"open";
  const std::vector<CsvRecord> records = csv_records(text);
  ASSERT_EQ(records.size(), 3u);
  const auto field = [&](const CsvRecord& r, std::size_t i) {
    return text.substr(r.fields[i].first, r.fields[i].second - r.fields[i].first);
  };
  ASSERT_EQ(records[0].fields.size(), 2u);
  EXPECT_EQ(field(records[0], 1), "\"b,1\"");
  EXPECT_TRUE(records[0].terminated);
  EXPECT_EQ(records[0].line, 1u);
  ASSERT_EQ(records[1].fields.size(), 2u);
  EXPECT_EQ(field(records[1], 0), "\"x\ny\"");
  EXPECT_EQ(field(records[1], 1), "\"say \"\"hi\"\"\"");
  EXPECT_TRUE(records[1].quotes_closed);
  EXPECT_EQ(records[1].line, 2u);
  EXPECT_EQ(records[2].line, 4u);
  EXPECT_FALSE(records[2].terminated);
  EXPECT_FALSE(records[2].quotes_closed);
  EXPECT_EQ(text.substr(records[2].begin, records[2].end - records[2].begin), "last,\"open");
  EXPECT_TRUE(csv_records("").empty());
  // From an offset, counting lines from the one named.
  const std::vector<CsvRecord> rest = csv_records(text, records[2].begin, 7);
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].line, 7u);
}

// A file is judged a block at a time: the records found are the same wherever the blocks end.
TEST(CsvRecords, TextReadInPiecesGivesTheRecordsOfTheWhole) {
  using namespace std::string_literals;  // the text holds a NUL byte
  const std::string text = "a,\"b,1\"\n\"x\ny\",\"say \"\"hi\"\"\"\nc,\0d\nlast,\"open\nx,y"s;
  const std::vector<CsvRecord> whole = csv_records(text);
  ASSERT_EQ(whole.size(), 4u);
  EXPECT_TRUE(whole[2].holds_nul);
  EXPECT_EQ(whole[3].widest_later_line, 2u);  // "x,y": two cells on a line of its own
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {
    CsvScanner scanner;
    std::vector<CsvRecordShape> shapes;
    const auto each = [&](const CsvRecordShape& shape) { shapes.push_back(shape); };
    const auto no_field = [](std::size_t, std::size_t) {};
    scanner.read(std::string_view(text).substr(0, cut), no_field, each);
    scanner.read(std::string_view(text).substr(cut), no_field, each);
    if (const auto last = scanner.unterminated()) shapes.push_back(*last);
    ASSERT_EQ(shapes.size(), whole.size()) << cut;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      EXPECT_EQ(shapes[i].begin, whole[i].begin) << cut;
      EXPECT_EQ(shapes[i].end, whole[i].end) << cut;
      EXPECT_EQ(shapes[i].field_count, whole[i].fields.size()) << cut;
      EXPECT_EQ(shapes[i].line, whole[i].line) << cut;
      EXPECT_EQ(shapes[i].holds_nul, whole[i].holds_nul) << cut;
      EXPECT_EQ(shapes[i].widest_later_line, whole[i].widest_later_line) << cut;
    }
  }
}

class ResultsStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / fs::unique_path("kbench-store-%%%%-%%%%");
    fs::create_directories(folder_);
    path_ = (folder_ / "nested" / "results.csv").string();
  }
  void TearDown() override { fs::remove_all(folder_); }

  static ResultCells row(const std::string& run, const std::string& message) {
    ResultCells r;
    r.run_id = run;
    r.plugin = "testing/good";
    r.status = "error";
    r.message = message;
    return r;
  }

  fs::path folder_;
  std::string path_;
};

TEST(Csv, QuotesPerRfc4180AndKeepsOneRowPerLine) {
  EXPECT_EQ(csv_cell("plain"), "plain");
  EXPECT_EQ(csv_cell("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_cell("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_cell("two\nlines"), "two\\nlines");
  EXPECT_EQ(csv_cell("back\\slash"), "back\\\\slash");
  EXPECT_EQ(csv_unescape("two\\nlines and back\\\\slash"), "two\nlines and back\\slash");
  EXPECT_EQ(csv_line({"a", "b,c", ""}), "a,\"b,c\",\n");
}

TEST_F(ResultsStoreTest, RoundTripsMessagesWithCommasQuotesAndNewlines) {
  const std::string nasty = "failed, at \"launch\"\nsecond line \\ with a backslash, and more";
  {
    ResultsStore store(path_);
    store.append(row("run-1", nasty));
    store.append(row("run-1", " leading and trailing spaces "));
    store.append(row("run-2", ""));
  }
  std::ifstream in(path_);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header + "\n", header_line());
  const auto rows = read_results(path_);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].message, nasty);
  EXPECT_EQ(rows[1].message, " leading and trailing spaces ");
  EXPECT_EQ(rows[2].run_id, "run-2");
  EXPECT_EQ(rows[0].plugin, "testing/good");
}

TEST_F(ResultsStoreTest, WritesTheHeaderOnceAcrossOpenings) {
  { ResultsStore(path_).append(row("a", "x")); }
  { ResultsStore(path_).append(row("b", "y")); }
  std::ifstream in(path_);
  std::string line;
  int lines = 0, headers = 0;
  while (std::getline(in, line)) {
    ++lines;
    if (line + "\n" == header_line()) ++headers;
  }
  EXPECT_EQ(lines, 3);
  EXPECT_EQ(headers, 1);
}

// Opening `path` for appending is refused with a message naming it and `reason`.
void expect_refused(const std::string& path, const std::string& reason) {
  try {
    ResultsStore store(path);
    ADD_FAILURE() << "appending to " << path << " was not refused";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find(reason), std::string::npos) << what;
  }
}

TEST_F(ResultsStoreTest, RefusesAFileWithAnotherHeaderAndLeavesItUntouched) {
  fs::create_directories(fs::path(path_).parent_path());
  const std::string foreign = "when,what,how long\n2026-01-01,x,3\n";
  { std::ofstream(path_) << foreign; }
  expect_refused(path_, "column 1 is 'when'");
  std::ifstream in(path_);
  const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, foreign);
}

TEST_F(ResultsStoreTest, ReportsACorruptRowWithFileAndLine) {
  { ResultsStore(path_).append(row("a", "x")); }
  { std::ofstream(path_, std::ios::app) << "only,three,cells\n"; }
  try {
    read_results(path_);
    FAIL() << "read a corrupt file";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path_), std::string::npos) << what;
    EXPECT_NE(what.find("3"), std::string::npos) << what;  // the line number
  }
}

// Several processes append at once: every row must come back whole, none torn or interleaved.
void concurrent_writers(const std::string& path, int writers, int rows_each) {
  std::vector<pid_t> children;
  for (int w = 0; w < writers; ++w) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ResultsStore store(path);
      // Long messages make a torn write likely if rows were not written whole.
      const std::string filler(300 + 50 * w, static_cast<char>('a' + w));
      for (int i = 0; i < rows_each; ++i) {
        ResultCells r;
        r.run_id = "writer-" + std::to_string(w);
        r.seed = std::to_string(i);
        r.message = filler + ", row \"" + std::to_string(i) + "\"";
        store.append(r);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  const auto rows = read_results(path);
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(writers * rows_each));
  std::set<std::string> seen;
  for (const auto& r : rows) {
    const int w = std::stoi(r.run_id.substr(7));
    const std::string filler(300 + 50 * w, static_cast<char>('a' + w));
    EXPECT_EQ(r.message, filler + ", row \"" + r.seed + "\"");
    seen.insert(r.run_id + "/" + r.seed);
  }
  EXPECT_EQ(seen.size(), rows.size());
}

TEST_F(ResultsStoreTest, TwoWritersAThousandRowsEach) { concurrent_writers(path_, 2, 1000); }

TEST_F(ResultsStoreTest, FourWritersTwoThousandRowsEach) { concurrent_writers(path_, 4, 2000); }

}  // namespace
}  // namespace kb

namespace kb {
namespace {

TEST(ResultsStoreRead, AnOlderSchemaReadsWithTheNewColumnsEmpty) {
  namespace fs = boost::filesystem;
  const fs::path csv = fs::temp_directory_path() / fs::unique_path("kbench-old-%%%%.csv");
  {
    std::ofstream out(csv.string());
    out << "timestamp_utc,run_id,plugin,status,median_us\n2026-11-21T00:00:00Z,r1,transpose/cpu,ok,1.5\n";
  }
  const auto rows = read_results(csv.string());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].median_us, "1.5");
  EXPECT_EQ(rows[0].batch_us, "");
  { std::ofstream(csv.string()) << "a,b\n1,2\n"; }
  EXPECT_THROW(read_results(csv.string()), InputError);
  fs::remove(csv);
}

// The schema before the kernel_* columns (ending at the CUPTI columns): its rows read as records
// with no kernel file.
TEST(ResultsStoreRead, TheSchemaBeforeTheKernelColumnsReadsWithoutKernelFiles) {
  const kbtest::TempFolder folder;
  const std::string csv = folder.file("before.csv");
  const auto after_counters =
      std::find(kResultHeader.begin(), kResultHeader.end(), std::string("counters")) + 1;
  std::vector<std::string> before(kResultHeader.begin(), after_counters);
  ResultCells row;
  row.run_id = "r1";
  row.plugin = "transpose/shared_padded";
  row.status = "ok";
  row.median_us = "12.5";
  row.referee = "family";
  std::vector<std::string> cells = cells_in_order(row);
  cells.resize(before.size());
  { std::ofstream(csv) << csv_line(before) << csv_line(cells); }
  const auto records = read_records(csv);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].plugin, "transpose/shared_padded");
  EXPECT_EQ(records[0].median_us, 12.5);
  EXPECT_TRUE(records[0].refereed_by_family());
  EXPECT_EQ(records[0].kernel_file, "");
  EXPECT_EQ(records[0].kernel_sha256, "");
  EXPECT_EQ(records[0].kernel_compiler, "");
}

// The committed files hold rows written before the CUPTI and kernel_* columns (upgraded with
// `kbench upgrade`, those cells empty) beside later runs': every row reads, an empty fourth clock
// comes with no kernel count, and a kernel file's row names its hash.
TEST(ResultsStoreRead, TheCommittedFilesFromBeforeTheCuptiColumnsRead) {
  for (const char* file : {"/results/h100.csv", "/results/h200.csv"}) {
    const std::string path = std::string(KBENCH_SOURCE_DIR) + file;
    const auto records = read_records(path);
    ASSERT_GT(records.size(), 100u) << path;
    std::size_t before = 0;
    for (const auto& record : records) {
      if (!record.cupti_us) {
        ++before;
        EXPECT_FALSE(record.cupti_kernels) << path;
      }
      if (!record.kernel_file.empty()) EXPECT_EQ(record.kernel_sha256.size(), 64u) << path;
    }
    EXPECT_GT(before, 500u) << path;
    EXPECT_GT(std::count_if(records.begin(), records.end(),
                            [](const ResultRecord& r) { return r.ok() && r.median_us; }),
              100)
        << path;
  }
}

}  // namespace
}  // namespace kb

// --- An appender repairs or refuses, never merges -----------------------------------------------
namespace kb {
namespace {

std::string content_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class IncompleteLine : public ::testing::Test {
 protected:
  static ResultCells row(const std::string& run) {
    ResultCells r;
    r.run_id = run;
    r.plugin = "testing/good";
    r.status = "ok";
    return r;
  }
  // A row cut short, as a writer killed mid-write (or a full disk) leaves it.
  static std::string torn_row() {
    const std::string line = csv_line(cells_in_order(row("torn")));
    return line.substr(0, line.size() / 2);
  }

  kbtest::TempFolder folder_;
  const std::string path_ = folder_.file("results.csv");
};

TEST_F(IncompleteLine, OpeningMovesTheFragmentAsideAndTheNextRowStandsAlone) {
  { ResultsStore(path_).append(row("before")); }
  { std::ofstream(path_, std::ios::app) << torn_row(); }
  {
    ResultsStore store(path_);
    store.append(row("after"));
  }
  const auto rows = read_results(path_);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].run_id, "before");
  EXPECT_EQ(rows[1].run_id, "after");
  EXPECT_EQ(content_of(path_ + ".fragments"), torn_row() + "\n");
}

TEST_F(IncompleteLine, EachAppendRepairsWhatAnotherWriterLeft) {
  ResultsStore store(path_);
  store.append(row("one"));
  { std::ofstream(path_, std::ios::app) << torn_row(); }  // another runner, killed mid-row
  store.append(row("two"));
  const auto rows = read_results(path_);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].run_id, "two");
  EXPECT_EQ(content_of(path_ + ".fragments"), torn_row() + "\n");
}

TEST_F(IncompleteLine, APartOfTheHeaderAloneIsMovedAsideAndTheHeaderWritten) {
  { std::ofstream(path_) << header_line().substr(0, 20); }
  ResultsStore(path_).append(row("one"));
  EXPECT_EQ(read_results(path_).size(), 1u);
  EXPECT_EQ(content_of(path_).substr(0, header_line().size()), header_line());
}

TEST_F(IncompleteLine, ReadersLeaveTheFragmentOutInsteadOfFailing) {
  { ResultsStore(path_).append(row("whole")); }
  { std::ofstream(path_, std::ios::app) << torn_row(); }
  const auto rows = read_results(path_);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].run_id, "whole");
  EXPECT_FALSE(fs::exists(path_ + ".fragments"));  // reading never changes the file
}

// A whole last row that only lacked its newline (an editor, another tool) was called
// torn and moved out of every reader. It has every field and closes its quotes: it is kept, and
// the next row starts on a line of its own.
TEST_F(IncompleteLine, AWholeLastRowWithoutItsNewlineIsKept) {
  { ResultsStore(path_).append(row("whole")); }
  ResultCells quoted = row("no-newline");
  quoted.message = "a message, with a comma and \"quotes\"";
  std::string line = csv_line(cells_in_order(quoted));
  line.pop_back();
  { std::ofstream(path_, std::ios::app) << line; }
  ASSERT_EQ(read_results(path_).size(), 2u);
  EXPECT_EQ(read_results(path_)[1].message, "a message, with a comma and \"quotes\"");
  ResultsStore(path_).append(row("next"));
  const auto rows = read_results(path_);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].run_id, "no-newline");
  EXPECT_EQ(rows[2].run_id, "next");
  EXPECT_FALSE(fs::exists(path_ + ".fragments"));
  // Cut inside its quoted message, the same row is a fragment.
  { std::ofstream(path_, std::ios::app) << line.substr(0, line.find("comma")); }
  EXPECT_EQ(read_results(path_).size(), 3u);
  ResultsStore(path_).append(row("after"));
  EXPECT_EQ(read_results(path_).size(), 4u);
  EXPECT_TRUE(fs::exists(path_ + ".fragments"));
}

// A results file replaced while a run appended to it (an editor saving by rename,
// `sed -i`, `git checkout`) took every later row into the deleted file.
TEST_F(IncompleteLine, AFileReplacedOrRemovedUnderTheWriterStopsItsAppends) {
  for (const bool removed : {false, true}) {
    ResultsStore store(path_);
    store.append(row("first"));
    const std::string copy = path_ + ".new";
    fs::copy_file(path_, copy, fs::copy_option::overwrite_if_exists);
    if (removed) fs::remove(path_);
    else fs::rename(copy, path_);
    try {
      store.append(row("second"));
      ADD_FAILURE() << "an append to a replaced file went through";
    } catch (const WriteError& e) {
      EXPECT_NE(std::string(e.what()).find("'" + path_ + "' was replaced or removed while this run "
                                           "wrote to it"),
                std::string::npos)
          << e.what();
    }
    fs::remove(path_);
    fs::remove(copy);
  }
}

TEST_F(IncompleteLine, NotARegularFileIsRefused) {
  for (const char* device : {"/dev/full", "/dev/null"}) expect_refused(device, "is not a regular file");
  EXPECT_THROW(ResultsStore(folder_.path().string()), InputError);  // a folder
}

TEST_F(IncompleteLine, AnUndoneAppendLeavesTheFileAsItWasUnlessSomethingFollowed) {
  SharedCsvFile file(path_, {"a", "b"}, "test file");
  file.append("1,2\n");
  const std::string before = content_of(path_);
  const auto span = file.append("3,4\n");
  EXPECT_TRUE(file.undo(span));
  EXPECT_EQ(content_of(path_), before);
  const auto mine = file.append("5,6\n");
  file.append("7,8\n");  // another row after mine: mine stays
  EXPECT_FALSE(file.undo(mine));
  EXPECT_EQ(content_of(path_), before + "5,6\n7,8\n");
}

// Files of other kbench versions: rows read (missing columns empty, extra ones left out), but an
// append is refused: an older kbench's file naming the columns it lacks and the command that adds
// them, a newer one's the first differing column.
TEST_F(IncompleteLine, OtherVersionsFilesReadButAreNotAppendedTo) {
  std::vector<std::string> older(kResultHeader.begin(), kResultHeader.end() - 1);
  std::vector<std::string> newer(kResultHeader.begin(), kResultHeader.end());
  newer.insert(newer.begin() + 30, "a_future_column");
  for (const auto& header : {older, newer}) {
    std::vector<std::string> cells(header.size(), "");
    cells[1] = "r1";
    cells[17] = "testing/good";  // plugin, the 18th column in both
    { std::ofstream(path_) << csv_line(header) << csv_line(cells); }
    const auto rows = read_results(path_);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].run_id, "r1");
    EXPECT_EQ(rows[0].plugin, "testing/good");
    expect_refused(path_, header == older ? "' was written by an older kbench (it lacks column " +
                                                std::string(kResultHeader.back()) +
                                                "); `kbench upgrade " + path_ + "` adds it"
                                          : "column 31 is 'a_future_column'");
  }
}

}  // namespace
}  // namespace kb
