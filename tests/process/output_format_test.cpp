// The files and the table `kbench run` writes, locked as Google Benchmark's output tests lock a
// reporter's: the expected text is written out here, not built from the constants that write it,
// so a changed column, order or format fails until this file says so too. What varies from run to
// run (the time, the host, the version, the timings) is masked as `*`; an empty cell stays empty.
#include "support/kbench_process.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using kbtest::read_file;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> split(const std::string& line, const std::string& separator) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (std::size_t at; (at = line.find(separator, start)) != std::string::npos;
       start = at + separator.size()) {
    cells.push_back(line.substr(start, at - start));
  }
  cells.push_back(line.substr(start));
  return cells;
}

std::string join(const std::vector<std::string>& cells, const std::string& separator) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? separator : "") + cells[i];
  return line;
}

// The lines of a CSV (no cell of these rows is quoted) with the named columns' non-empty cells
// masked; the header stays as written.
std::vector<std::string> masked_csv(const std::string& text, const std::set<std::string>& masked) {
  std::vector<std::string> lines = lines_of(text);
  if (lines.empty()) return lines;
  const std::vector<std::string> header = split(lines.front(), ",");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::vector<std::string> cells = split(lines[i], ",");
    for (std::size_t c = 0; c < cells.size() && c < header.size(); ++c) {
      if (masked.count(header[c]) && !cells[c].empty()) cells[c] = "*";
    }
    lines[i] = join(cells, ",");
  }
  return lines;
}

class OutputFormat : public ::testing::Test {
 protected:
  void SetUp() override {
    // One case that runs and one its plugin refuses, one worker, a few samples.
    run_ = kbtest::kbench({"run", "--plugins", kbtest::test_plugin_dir("faulty"), "--plugin",
                           "testing/good", "--sizes", "10", "--dtypes", "int32,float32",
                           "--min-samples", "3", "--min-time", "0", "--run-id", "golden",
                           "--samples-out", folder_.file("samples.csv")},
                          folder_.file("results.csv"));
    ASSERT_EQ(run_.exit_code, 0) << run_.output;
  }

  kbtest::TempFolder folder_;
  kbtest::Run run_;
};

TEST_F(OutputFormat, ResultsCsvHeaderAndRows) {
  const auto lines = masked_csv(read_file(folder_.file("results.csv")),
                                {"timestamp_utc", "host", "kbench_version", "samples", "median_us",
                                 "min_us", "mean_us", "stddev_us", "noise", "settled", "gbps",
                                 "gflops"});
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "timestamp_utc,run_id,host,kbench_version,gpu_name,gpu_uuid,compute_capability,"
            "sm_count,l2_bytes,mem_bus_bits,mem_clock_mhz,theoretical_gbps,copy_gbps,"
            "driver_version,runtime_version,device,family,plugin,plugin_version,dtype,op,shape,"
            "block,params,grid,seed,cache,repetition,status,message,samples,median_us,min_us,"
            "mean_us,stddev_us,noise,settled,timing,sample_launches,batch_us,host_us,gbps,gflops,"
            "peak,fraction_of_peak,max_rel_error,tolerance,bytes,flops,metrics,sm_clock_mhz,"
            "temperature_c,throttle,energy_j,power_w,gb_per_j,gflop_per_j,read_gbps,l2_gbps,"
            "referee,cupti_us,cupti_kernels,counters,kernel_file,kernel_sha256,kernel_compiler,code,"
            "kernels");
  EXPECT_EQ(lines[1],
            "*,golden,*,*,,,,,,,,,,,,host,testing,testing/good,1,int32,,10,-,,-,42,hot,0,ok,,*,*,"
            "*,*,*,*,*,host,1,,,*,*,,,0,0,80,10,elements=10,,,,,,,,,,plugin,,,,,,,,");
  EXPECT_EQ(lines[2],
            "*,golden,*,*,,,,,,,,,,,,host,testing,testing/good,1,float32,,10,-,,,42,hot,0,"
            "unsupported,data type float32 not supported (plugin supports int32),,,,,,,,,,,,,,,,,,"
            ",,,,,,,,,,,,plugin,,,,,,,,");
}

TEST_F(OutputFormat, SamplesCsvOneLinePerSample) {
  const auto lines = masked_csv(read_file(folder_.file("samples.csv")), {"us"});
  ASSERT_GE(lines.size(), 4u);  // the header and at least --min-samples samples
  EXPECT_EQ(lines[0], "run_id,gpu_uuid,device,plugin,dtype,op,shape,block,params,cache,repetition,"
                      "sample,us");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i], "golden,,host,testing/good,int32,,10,-,,hot,0," + std::to_string(i - 1) +
                            ",*");
  }
  // As many as the row counts.
  const auto results = lines_of(read_file(folder_.file("results.csv")));
  const auto header = split(results[0], ",");
  const auto row = split(results[1], ",");
  const auto samples = std::find(header.begin(), header.end(), "samples") - header.begin();
  EXPECT_EQ(row.at(samples), std::to_string(lines.size() - 1));
}

TEST_F(OutputFormat, ProgressLinesClosingTableAndCounts) {
  // The numbers of the ok case masked: its time, GB/s and GFLOP/s.
  const std::regex measure(R"([0-9.e+-]+ (us|GB/s|GFLOP/s))");
  const std::regex number(R"([0-9.e+-]+)");
  std::vector<std::string> shown;
  for (const auto& line : lines_of(run_.output)) {
    if (line.rfind("[", 0) == 0 || line.find(" cases: ") != std::string::npos) {
      shown.push_back(std::regex_replace(line, measure, "* $1"));
    } else if (line.rfind("|", 0) == 0) {
      std::vector<std::string> cells = split(line, " | ");
      for (std::size_t c = 6; c <= 8 && c < cells.size(); ++c) {
        if (std::regex_match(cells[c], number)) cells[c] = "*";
      }
      shown.push_back(join(cells, " | "));
    }
  }
  EXPECT_EQ(join(shown, "\n"),
            "[1/2] testing/good int32 10 -: ok * us * GB/s * GFLOP/s\n"
            "[2/2] testing/good float32 10 -: unsupported (data type float32 not supported (plugin "
            "supports int32))\n"
            "| plugin | dtype | op | shape | block | status | median us | GB/s | GFLOP/s | of peak |\n"
            "|---|---|---|---|---|---|---:|---:|---:|---:|\n"
            "| testing/good | int32 |  | 10 | - | ok | * | * | * |  |\n"
            "| testing/good | float32 |  | 10 | - | unsupported |  |  |  |  |\n"
            "2 cases: 1 ok, 0 verify_failed, 0 implausible, 1 unsupported, 0 error, 0 crashed, 0 "
            "timeout, 0 oom");
}

}  // namespace
