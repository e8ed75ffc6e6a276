// Running the real, built `kbench` executable from a test and reading back what it wrote.
#pragma once

#include "protocol/plugin_probe.hpp"

#include <boost/filesystem/path.hpp>

#include <gtest/gtest.h>

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

namespace kbtest {

using Row = std::map<std::string, std::string>;  // CSV column name -> cell

struct Run {
  int exit_code = -1;
  std::string output;     // standard output and standard error, interleaved
  std::vector<Row> rows;  // the CSV rows the run appended, read back through the results store
  std::string csv_error;  // why the CSV could not be read back, if it could not
};

// Runs `kbench <args...>`; for `run`, adds `--output <csv>` (a fresh temporary file when `csv` is
// empty) and reads the CSV back.
Run kbench(const std::vector<std::string>& args, const std::string& csv = "");

// Starts `kbench <args...>` without waiting for it, its output (standard output and error) to
// `log`; with `own_group`, in a process group of its own, as timeout(1), Slurm and systemd see
// a job (kill(-pid, sig) then signals the whole group).
pid_t spawn_kbench(const std::vector<std::string>& args, const std::string& log = "/dev/null",
                   bool own_group = false);

// A fresh folder under the system's temporary folder, removed with everything in it.
class TempFolder {
 public:
  TempFolder();
  ~TempFolder();
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const boost::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  boost::filesystem::path path_;
};

// While it lives, the processes the test starts may write files of at most `bytes` (`ulimit -f`,
// RLIMIT_FSIZE): a larger write fails, or raises SIGXFSZ in a process that does not ignore it.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(unsigned long long bytes);
  ~FileSizeLimit();
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  unsigned long long before_;
};

int count_lines(const std::string& text);

// The whole of a file, or "" when it cannot be read.
std::string read_file(const std::string& path);

// The folder the build writes the test plugins to: <root>/loader, <root>/faulty.
std::string test_plugin_dir(const std::string& name);

// The real probe process (`kbench probe`) the tests share, and the plugins it loads from a test
// plugin folder ("faulty", "loader"...).
kb::PluginProbe& probe();
std::vector<std::shared_ptr<const kb::PluginInfo>> test_plugins(const std::string& folder);

// True when the CUDA runtime sees at least one device.
bool cuda_device_present();

}  // namespace kbtest

#define KBTEST_REQUIRE_GPU()                                                   \
  do {                                                                         \
    if (!::kbtest::cuda_device_present()) GTEST_SKIP() << "no CUDA device";    \
  } while (0)
