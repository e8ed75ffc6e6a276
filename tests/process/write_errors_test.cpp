// A write error (a full disk, --samples-out on /dev/full) ends the run cleanly: nothing
// half-written stays for the next row to be glued onto, one line says why, which case was not
// recorded and how to resume, and the exit code is 4. --samples-out on the results CSV, or any
// other CSV, is refused.
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <sys/mount.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>

namespace {

using kbtest::kbench;
namespace fs = boost::filesystem;

std::string content_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class WriteErrors : public ::testing::Test {
 protected:
  void TearDown() override { unsetenv("KBENCH_TEST_WRITE_LIMIT"); }

  std::vector<std::string> sweep(const std::string& sizes) const {
    return {"run", "--plugins", kbtest::test_plugin_dir("faulty"), "--plugin", "testing/good",
            "--sizes", sizes, "--dtypes", "int32", "--min-samples", "1", "--max-time", "0.001",
            "--run-id", "full-disk"};
  }

  // Every row whole, each case once, the file ending in a newline, nothing moved aside.
  void expect_whole_rows(std::size_t expected) {
    const std::string content = content_of(csv_);
    ASSERT_FALSE(content.empty());
    EXPECT_EQ(content.back(), '\n');
    EXPECT_FALSE(fs::exists(csv_ + ".fragments"));
    const auto rows = kb::read_results(csv_);
    EXPECT_EQ(rows.size(), expected);
    std::set<std::string> shapes;
    for (const auto& row : rows) {
      EXPECT_EQ(row.status, "ok");
      shapes.insert(row.shape);
    }
    EXPECT_EQ(shapes.size(), rows.size());
  }

  kbtest::TempFolder folder_;
  std::string csv_ = folder_.file("results.csv");
};

TEST_F(WriteErrors, AFailedWriteEndsTheRunWithNothingHalfWrittenAndResumes) {
  // The size of the header and two rows, and half of a third: the third row's write fails after
  // writing part of it, as on a full disk (KBENCH_TEST_WRITE_LIMIT, see docs/nothing-lost.md).
  const std::string reference = folder_.file("reference.csv");
  auto run = kbench(sweep("10,20,30"), reference);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string lines = content_of(reference);
  const std::size_t two_rows = lines.find('\n', lines.find('\n', lines.find('\n') + 1) + 1) + 1;
  const std::size_t limit = two_rows + (lines.size() - two_rows) / 2;
  setenv("KBENCH_TEST_WRITE_LIMIT", std::to_string(limit).c_str(), 1);

  run = kbench(sweep("10,20,30,40,50,60"), csv_);
  EXPECT_EQ(run.exit_code, 4) << run.output;
  EXPECT_NE(run.output.find("kbench: cannot write results file '" + csv_ +
                            "': No space left on device; not recorded: testing/good int32 30 -. "
                            "When the file can be written, resume with:\n  kbench run "),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("--run-id full-disk --output " + csv_ + " --resume\n"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("terminate"), std::string::npos) << run.output;
  expect_whole_rows(2);

  unsetenv("KBENCH_TEST_WRITE_LIMIT");
  auto resumed = sweep("10,20,30,40,50,60");
  resumed.push_back("--resume");
  run = kbench(resumed, csv_);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  expect_whole_rows(6);
}

TEST_F(WriteErrors, ASamplesFileThatCannotBeWrittenFailsTheRunAndKeepsNoRowOfTheCase) {
  const std::string samples = folder_.file("samples.csv");
  // Room for both headers and a few bytes of the first case's samples.
  const std::size_t headers = kb::header_line().size() +
                              std::string("run_id,gpu_uuid,device,plugin,dtype,op,shape,block,params,cache,repetition,"
                                          "sample,us\n").size();
  setenv("KBENCH_TEST_WRITE_LIMIT", std::to_string(headers + 5).c_str(), 1);
  auto args = sweep("10,20");
  args.insert(args.end(), {"--samples-out", samples});
  const auto run = kbench(args, csv_);
  EXPECT_EQ(run.exit_code, 4) << run.output;
  EXPECT_NE(run.output.find("cannot write samples file '" + samples + "'"), std::string::npos)
      << run.output;
  EXPECT_EQ(content_of(csv_), kb::header_line());  // no row without its samples
  EXPECT_EQ(content_of(samples).find('\n'), content_of(samples).size() - 1);  // the header alone
}

TEST_F(WriteErrors, SamplesOutRefusesTheResultsFileAnotherCsvAndDevices) {
  auto run = kbench(sweep("10"), csv_);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string before = content_of(csv_);
  for (const auto& [target, expected] : std::vector<std::pair<std::string, std::string>>{
           {csv_, "--samples-out '" + csv_ + "' is the --output file"},
           {(folder_.path() / "." / "results.csv").string(), "is the --output file"},
           {"/dev/full", "samples file '/dev/full' is not a regular file"}}) {
    auto args = sweep("20");
    args.insert(args.end(), {"--samples-out", target, "--run-id", "another"});
    args.erase(std::find(args.begin(), args.end(), "full-disk") - 1,
               std::find(args.begin(), args.end(), "full-disk") + 1);
    run = kbench(args, csv_);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find(expected), std::string::npos) << run.output;
  }
  // A results CSV named as the samples file of another run: its header is not the samples header.
  const std::string other = folder_.file("other.csv");
  auto args = sweep("20");
  args.insert(args.end(), {"--samples-out", csv_});
  run = kbench(args, other);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("samples file '" + csv_ + "' has a different header (column 1 is "
                            "'timestamp_utc', expected 'run_id')"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(content_of(csv_), before);
}

// The real thing: a 64 KiB tmpfs filled by a sweep. Needs mount(2) (root); skipped otherwise.
TEST_F(WriteErrors, AFullTmpfsEndsTheRunCleanlyAndTheRunResumesOnceThereIsRoom) {
  const fs::path mount_point = folder_.path() / "small";
  fs::create_directories(mount_point);
  if (::mount("kbench-test", mount_point.c_str(), "tmpfs", 0, "size=64k") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno)
                 << "); the write-error path is covered by KBENCH_TEST_WRITE_LIMIT";
  }
  csv_ = (mount_point / "results.csv").string();
  std::string sizes;
  for (int i = 1; i <= 400; ++i) sizes += (i > 1 ? "," : "") + std::to_string(i);
  auto run = kbench(sweep(sizes), csv_);
  EXPECT_EQ(run.exit_code, 4) << run.output.substr(run.output.size() > 2000 ? run.output.size() - 2000 : 0);
  EXPECT_NE(run.output.find("No space left on device; not recorded: testing/good int32"),
            std::string::npos);
  const std::size_t kept = kb::read_results(csv_).size();
  EXPECT_GT(kept, 0u);
  EXPECT_LT(kept, 400u);
  expect_whole_rows(kept);

  ASSERT_EQ(::mount("kbench-test", mount_point.c_str(), "tmpfs", MS_REMOUNT, "size=4m"), 0);
  auto resumed = sweep(sizes);
  resumed.push_back("--resume");
  run = kbench(resumed, csv_);
  EXPECT_EQ(run.exit_code, 0) << run.output.substr(run.output.size() > 2000 ? run.output.size() - 2000 : 0);
  expect_whole_rows(400);
  ::umount(mount_point.c_str());
}

// Report.md, the plots, a JUnit file and standard output on a full disk were lost with
// exit 0, and a disk already full when the results file was created said exit 2 (bad input).
TEST_F(WriteErrors, EveryFileAndStandardOutputThatCannotBeWrittenIsExitFour) {
  ASSERT_EQ(kbench(sweep("10,20"), csv_).exit_code, 0);
  auto resumed = sweep("10,20");
  resumed[resumed.size() - 1] = "full-disk-2";
  ASSERT_EQ(kbench(resumed, csv_).exit_code, 0);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"report", csv_, "-o", folder_.file("report")}, "cannot write "},
      {{"report", csv_, "-o", folder_.file("history"), "--history"}, "cannot write "},
      {{"compare", csv_, "--baseline-run", "full-disk", "--run", "full-disk-2", "--junit",
        folder_.file("junit.xml")},
       "cannot write JUnit file '" + folder_.file("junit.xml") + "': No space left on device"},
  };
  for (const auto& [args, expected] : cases) {
    setenv("KBENCH_TEST_WRITE_LIMIT", "100", 1);
    const auto run = kbench(args);
    unsetenv("KBENCH_TEST_WRITE_LIMIT");
    EXPECT_EQ(run.exit_code, 4) << run.output;
    EXPECT_NE(run.output.find(expected), std::string::npos) << run.output;
  }
  auto run = kbench({"compare", csv_, "--baseline-run", "full-disk", "--run", "full-disk-2",
                     "--junit", "/dev/full"});
  EXPECT_EQ(run.exit_code, 4) << run.output;
  // The HTML page of `report --html`, the markdown beside it written.
  for (const bool history : {false, true}) {
    std::vector<std::string> args = {"report", csv_, "-o", folder_.file("html-report"), "--html",
                                     "/dev/full"};
    if (history) args.push_back("--history");
    run = kbench(args);
    EXPECT_EQ(run.exit_code, 4) << run.output;
    EXPECT_NE(run.output.find("cannot write HTML page '/dev/full': No space left on device"),
              std::string::npos)
        << run.output;
  }
  // Standard output on a full device: `compare`'s table, `list`'s.
  for (const std::string& command :
       {"compare " + csv_ + " --by run", "list --plugins " + kbtest::test_plugin_dir("faulty")}) {
    const std::string line = std::string(KBENCH_EXE) + " " + command + " >/dev/full 2>" +
                             folder_.file("stderr");
    const int status = std::system(line.c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 4) << command << ": " << status;
    EXPECT_NE(content_of(folder_.file("stderr")).find("kbench: cannot write standard output"),
              std::string::npos)
        << content_of(folder_.file("stderr"));
  }
}

TEST_F(WriteErrors, ADiskFullWhenTheResultsFileIsCreatedIsExitFour) {
  const fs::path mount_point = folder_.path() / "no-inodes";
  fs::create_directories(mount_point);
  // The root folder takes the only inode: creating a file fails with ENOSPC.
  if (::mount("kbench-test", mount_point.c_str(), "tmpfs", 0, "size=64k,nr_inodes=1") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno) << ")";
  }
  const auto run = kbench(sweep("10"), (mount_point / "results.csv").string());
  ::umount(mount_point.c_str());
  EXPECT_EQ(run.exit_code, 4) << run.output;
  EXPECT_NE(run.output.find("No space left on device"), std::string::npos) << run.output;
}

// A file-size limit (`ulimit -f`) once killed kbench with SIGXFSZ mid-row, without a line: the
// write fails instead (EFBIG) and takes the path of a full disk.
TEST_F(WriteErrors, AFileSizeLimitIsAFailedWriteNotASilentDeath) {
  std::string sizes;
  for (int i = 1; i <= 60; ++i) sizes += (i > 1 ? "," : "") + std::to_string(i);
  kbtest::Run run;
  {
    const kbtest::FileSizeLimit limit(10240);
    run = kbench(sweep(sizes), csv_);
  }
  EXPECT_EQ(run.exit_code, 4) << run.output;
  EXPECT_NE(run.output.find("kbench: cannot write results file '" + csv_ +
                            "': File too large; not recorded: testing/good int32 "),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("--run-id full-disk --output " + csv_ + " --resume\n"),
            std::string::npos)
      << run.output;
  const std::size_t kept = kb::read_results(csv_).size();
  EXPECT_GT(kept, 0u);
  EXPECT_LT(kept, 60u);
  expect_whole_rows(kept);

  auto resumed = sweep(sizes);
  resumed.push_back("--resume");
  run = kbench(resumed, csv_);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  expect_whole_rows(60);

  // The HTML page of `report --html` (the markdown beside it small enough to be written).
  {
    const kbtest::FileSizeLimit limit(10240);
    run = kbench({"report", csv_, "-o", folder_.file("report"), "--html", folder_.file("r.html")});
  }
  EXPECT_EQ(run.exit_code, 4) << run.output;
  EXPECT_NE(run.output.find("cannot write HTML page '" + folder_.file("r.html") +
                            "': File too large"),
            std::string::npos)
      << run.output;
}

// gnuplot writes the PNGs, and exits 0 when its write fails: `report` said "wrote 1 plot(s)", exit
// 0, and left a truncated PNG. Under a file-size limit and on a full tmpfs (report.md and the
// plots' scripts fit, their PNG does not), the plot is now a failed write, and no part of it stays.
TEST_F(WriteErrors, APlotGnuplotCouldNotWriteWholeIsExitFourAndLeftNowhere) {
  ASSERT_EQ(kbench(sweep("10,20,40"), csv_).exit_code, 0);
  const auto expect_no_part_of_a_plot = [](const kbtest::Run& run, const fs::path& out) {
    if (run.output.find("gnuplot is not installed") != std::string::npos) {
      GTEST_SKIP() << "gnuplot is not installed (scripts/install-deps.sh installs gnuplot-nox)";
    }
    EXPECT_EQ(run.exit_code, 4) << run.output;
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
    EXPECT_NE(run.output.find("kbench: cannot write plot '" + out.string() + "/"),
              std::string::npos)
        << run.output;
    for (fs::directory_iterator it(out), end; it != end; ++it) {
      EXPECT_NE(it->path().extension(), ".png") << it->path();
    }
  };
  const fs::path limited = folder_.path() / "limited";
  kbtest::Run run;
  {
    const kbtest::FileSizeLimit limit(16384);
    run = kbench({"report", csv_, "-o", limited.string()});
  }
  expect_no_part_of_a_plot(run, limited);

  const fs::path small = folder_.path() / "small";
  fs::create_directories(small);
  if (::mount("kbench-test", small.c_str(), "tmpfs", 0, "size=16k") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno) << ")";
  }
  run = kbench({"report", csv_, "-o", small.string()});
  expect_no_part_of_a_plot(run, small);
  ::umount(small.c_str());
}

}  // namespace
