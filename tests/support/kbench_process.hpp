// Running the real, built `kbench` executable from a test and reading back what it wrote.
#pragma once

#include "plugin_probe.hpp"

#include <gtest/gtest.h>

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
