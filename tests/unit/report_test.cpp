// `kbench report` end to end: a small CSV written through the results store, the real executable
// run on it, report.md read back, and the PNGs checked where gnuplot is installed.
#include "support/kbench_process.hpp"

#include "results_store.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace {

namespace fs = boost::filesystem;

kb::ResultRow row(const std::string& gpu, const std::string& plugin, const std::string& shape,
                  double gbps, double gflops = 0) {
  kb::ResultRow r;
  r.set("timestamp_utc", "2026-01-01T00:00:00Z");
  r.set("run_id", "run-" + gpu);
  r.set("gpu_name", gpu);
  r.set("gpu_uuid", "GPU-" + gpu);
  r.set("copy_gbps", gpu == "H100" ? "3000" : "4000");
  r.set("family", plugin.substr(0, plugin.find('/')));
  r.set("plugin", plugin);
  r.set("dtype", "float32");
  r.set("shape", shape);
  r.set("block", "-");
  r.set("cache", "hot");
  r.set("status", "ok");
  r.set("median_us", std::to_string(1e6 / gbps));
  r.set("noise", "0.001");
  r.set("gbps", std::to_string(gbps));
  if (gflops > 0) r.set("gflops", std::to_string(gflops));
  return r;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path.string());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / fs::unique_path("kbench-report-%%%%-%%%%");
    csv_ = (folder_ / "results.csv").string();
    kb::ResultsStore store(csv_);
    for (const std::string gpu : {"H100", "H200"}) {
      const double speed = gpu == "H100" ? 1.0 : 1.5;
      store.append(row(gpu, "transpose/copy", "1024x1024", 2800 * speed));
      store.append(row(gpu, "transpose/copy", "4096x4096", 2900 * speed));
      store.append(row(gpu, "transpose/fast", "1024x1024", 1400 * speed));
      store.append(row(gpu, "transpose/fast", "4096x4096", 2320 * speed));
      store.append(row(gpu, "matmul/cublas", "512x512x512", 100, 40000 * speed));
      store.append(row(gpu, "matmul/tiled", "512x512x512", 10, 4000 * speed));
    }
  }
  void TearDown() override { fs::remove_all(folder_); }

  fs::path folder_;
  std::string csv_;
};

TEST_F(ReportTest, WritesTheHeadlineTablesAndPlots) {
  const fs::path out = folder_ / "report";
  const auto run = kbtest::kbench({"report", csv_, "-o", out.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string md = read_file(out / "report.md");
  EXPECT_NE(md.find("## transpose"), std::string::npos) << md;
  EXPECT_NE(md.find("## matmul"), std::string::npos) << md;
  EXPECT_NE(md.find("## GPU vs GPU"), std::string::npos) << md;
  // The best transpose at 4096x4096 on the H200: 3480 GB/s, 0.8 of the copy at that size.
  EXPECT_NE(md.find("| float32 | 4096x4096 | H200 | transpose/fast | -     | 3480 |"),
            std::string::npos) << md;
  EXPECT_NE(md.find("0.800 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| transpose/fast |       1.50x |"), std::string::npos) << md;
  for (const char* plot : {"transpose_float32_h200", "matmul_float32_h100", "gpu_ratio"}) {
    EXPECT_NE(md.find(std::string("(") + plot + ".png)"), std::string::npos) << plot;
    EXPECT_TRUE(fs::exists(out / (std::string(plot) + ".gp"))) << plot;
    EXPECT_TRUE(fs::exists(out / (std::string(plot) + ".dat"))) << plot;
  }
  if (run.output.find("gnuplot is not installed") != std::string::npos) {
    GTEST_SKIP() << "gnuplot is not installed: the PNGs are not drawn (scripts/install-deps.sh "
                    "installs gnuplot-nox)";
  }
  for (const char* plot : {"transpose_float32_h200", "matmul_float32_h100", "gpu_ratio"}) {
    const fs::path png = out / (std::string(plot) + ".png");
    ASSERT_TRUE(fs::exists(png)) << png;
    EXPECT_EQ(read_file(png).substr(1, 3), "PNG") << png;
  }
}

TEST_F(ReportTest, GpusAreComparedWithTheOneWithMostCasesAndOnlyWhereTheyShareOne) {
  {
    kb::ResultsStore store(csv_);
    // First in sorted order, but with one case, which no other GPU ran.
    store.append(row("A100", "transpose/copy", "8192x8192", 1500));
  }
  const fs::path out = folder_ / "report";
  const auto run = kbtest::kbench({"report", csv_, "-o", out.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string md = read_file(out / "report.md");
  EXPECT_NE(md.find("| H200 / H100 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| A100 "), std::string::npos) << "listed among the devices";
  EXPECT_EQ(md.find("A100 / "), std::string::npos) << md;
  EXPECT_EQ(md.find(" / A100"), std::string::npos) << md;
  EXPECT_EQ(read_file(out / "gpu_ratio.dat").find("\t-\t"), std::string::npos)
      << read_file(out / "gpu_ratio.dat");
}

TEST_F(ReportTest, WithoutGnuplotWritesTheScriptsAndSaysSoInOneLine) {
  const fs::path out = folder_ / "report";
  const std::string saved_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", "/nonexistent", 1);  // kbench is run by its full path; gnuplot is not found
  const auto run = kbtest::kbench({"report", csv_, "-o", out.string(), "--family", "matmul"});
  setenv("PATH", saved_path.c_str(), 1);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("gnuplot is not installed"), std::string::npos) << run.output;
  EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
  EXPECT_TRUE(fs::exists(out / "matmul_float32_h100.gp"));
  EXPECT_FALSE(fs::exists(out / "matmul_float32_h100.png"));
}

TEST_F(ReportTest, NeedsAnOutputFolder) {
  const auto run = kbtest::kbench({"report", csv_});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("'--output' is required"), std::string::npos) << run.output;
}

}  // namespace
