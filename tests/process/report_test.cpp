// `kbench report` end to end: a small CSV of two GPU models written through the results store,
// the real executable run on it, report.md read back, and the PNGs checked where gnuplot is
// installed.
#include "store/results_store.hpp"
#include "support/case_rows.hpp"
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <fstream>
#include <sstream>
#include <tuple>

namespace {

namespace fs = boost::filesystem;
using kbtest::CaseSpec;
using kbtest::Card;
using kbtest::case_row;

std::string read_file(const fs::path& path) { return kbtest::read_file(path.string()); }

// The lines of `text` from the one starting with `first` up to the next blank line.
std::string block_from(const std::string& text, const std::string& first) {
  const auto start = text.find(first);
  if (start == std::string::npos) return "";
  const auto end = text.find("\n\n", start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start + 1);
}

class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / fs::unique_path("kbench-report-%%%%-%%%%");
    csv_ = (folder_ / "results.csv").string();
    kb::ResultsStore store(csv_);
    // Two H100 cards and one H200 with 1.4x their copy bandwidth.
    const Card h100a{"H100", "GPU-a", 3000}, h100b{"H100", "GPU-b", 3000}, h200{"H200", "GPU-c", 4200};
    const double bytes = 536870912;  // a float32 8192x8192 transpose: read and written, past the L2
    for (const auto& [card, speed] : {std::pair{h100a, 1.0}, {h100b, 1.0}, {h200, 1.4}}) {
      store.append(case_row(card, {"transpose/copy", "float32", "4096x4096", 48 / speed, bytes / 4}));
      store.append(case_row(card, {"transpose/copy", "float32", "8192x8192", 180 / speed, bytes}));
      store.append(case_row(card, {"transpose/fast", "float32", "4096x4096", 60 / speed, bytes / 4}));
      // The fast transpose gains 1.2x where the copy gains 1.4x.
      store.append(case_row(card, {"transpose/fast", "float32", "8192x8192",
                                   card.uuid == "GPU-c" ? 200 / 1.2 : 200, bytes}));
      store.append(case_row(card, {"matmul/cublas", "float32", "4096x4096x4096", 2700, 201326592,
                                   137438953472, "fp32"}));
      store.append(case_row(card, {"matmul/cublas", "float32", "2048x2048x2048", 400, 50331648,
                                   17179869184, "fp32"}));
      store.append(case_row(card, {"matmul/tiled", "float32", "4096x4096x4096", 22000, 201326592,
                                   137438953472, "fp32", "", "16x16"}));
      store.append(case_row(card, {"matmul/tiled", "float32", "2048x2048x2048", 2900, 50331648,
                                   17179869184, "fp32", "", "16x16"}));
      store.append(case_row(card, {"hello/record", "none", "5", 26, 640, 0, "copy", "", "2x2",
                                   "sms=5;max_resident=5"}));
    }
  }
  void TearDown() override { fs::remove_all(folder_); }

  fs::path folder_;
  std::string csv_;
};

TEST_F(ReportTest, LeadsWithTheModelsTheBestPerFamilyTheScalingAndTheRoofline) {
  const fs::path out = folder_ / "report";
  const auto run = kbtest::kbench({"report", csv_, "-o", out.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string md = read_file(out / "report.md");
  // The lead page comes first, in this order; the details after it.
  std::size_t at = 0;
  for (const char* heading : {"## GPU models", "## Best per family", "## Scaling: H200 vs H100",
                              "## Roofline", "# Details", "## GPU cards", "## Scaling per case",
                              "## hello", "## matmul", "## transpose"}) {
    const auto found = md.find(std::string("\n") + heading + "\n", at);
    ASSERT_NE(found, std::string::npos) << heading << " after offset " << at << "\n" << md;
    at = found;
  }
  EXPECT_NE(md.find("27 rows from 3 run(s) on 2 GPU model(s), 3 card(s)."), std::string::npos) << md;
  EXPECT_EQ(block_from(md, "| GPU model | compute"),
            "| GPU model | compute capability | SMs | cards | SM clock (MHz) | FP32 peak (GFLOP/s) | theoretical GB/s | measured copy GB/s | runs | rows |\n"
            "|-----------|--------------------|----:|------:|---------------:|--------------------:|-----------------:|-------------------:|-----:|-----:|\n"
            "| H100      | 9.0                | 132 |     2 |           1980 |               66908 |                — |   3000 (3000–3000) |    2 |   18 |\n"
            "| H200      | 9.0                | 132 |     1 |           1980 |               66908 |                — |               4200 |    1 |    9 |\n");
  // The fast transpose reaches 2684 / 3000 GB/s on the H100 (its copy reaches 2983).
  EXPECT_NE(md.find("| transpose | H100      | transpose/fast | float32 8192x8192      | -     |    2684 GB/s |   0.895 |"),
            std::string::npos) << block_from(md, "| family ");
  // The plugin that did not scale as predicted is listed first: the fast transpose gained 1.4x
  // at 4096x4096 and 1.2x at 8192x8192, 1.30x over both against the copy bandwidth's 1.40x.
  EXPECT_EQ(block_from(md, "| plugin         | bound"),
            "| plugin         | bound  | scaled       | cases | measured | predicted | efficiency | largest case                  | its measured | its efficiency |\n"
            "|----------------|--------|--------------|------:|---------:|----------:|-----------:|-------------------------------|-------------:|---------------:|\n"
            "| transpose/fast | memory | below        |     2 |    1.30x |     1.40x |      0.926 | float32 8192x8192             |        1.20x |          0.857 |\n"
            "| transpose/copy | memory | as predicted |     2 |    1.40x |     1.40x |      1.000 | float32 8192x8192             |        1.40x |          1.000 |\n"
            "| matmul/cublas  | fp32   | as predicted |     2 |    1.00x |     1.00x |      1.000 | float32 4096x4096x4096        |       ~1.00x |          1.000 |\n"
            "| matmul/tiled   | fp32   | as predicted |     2 |    1.00x |     1.00x |      1.000 | float32 4096x4096x4096 @16x16 |       ~1.00x |          1.000 |\n"
            "| hello/record   | L2     | —            |     1 |    1.00x |         — |          — | none 5 @2x2                   |       ~1.00x |              — |\n");
  EXPECT_NE(md.find("memory-bound 1.40x (measured copy bandwidth, 4200 / 3000 GB/s)"),
            std::string::npos) << md;
  EXPECT_NE(md.find("Not drawn, as their cases do no arithmetic (flops = 0): hello/record, "
                    "transpose/copy, transpose/fast."),
            std::string::npos) << md;
  // hello is measured by the time of a launch, not by a bandwidth.
  const std::string hello = md.substr(md.find("\n## hello\n"), md.find("\n## matmul\n") - md.find("\n## hello\n"));
  EXPECT_NE(hello.find("us per launch"), std::string::npos) << hello;
  EXPECT_NE(hello.find("sms=5;max_resident=5"), std::string::npos) << hello;
  EXPECT_EQ(hello.find("GB/s"), std::string::npos) << hello;
  // One PNG per family and model, the roofline, the scaling: nothing per card.
  const std::vector<std::string> plots = {"roofline", "scaling_h200", "matmul_h100", "matmul_h200",
                                          "transpose_h100", "transpose_h200"};
  for (const auto& plot : plots) {
    EXPECT_NE(md.find("(" + plot + ".png)"), std::string::npos) << plot;
    EXPECT_TRUE(fs::exists(out / (plot + ".gp"))) << plot;
    EXPECT_TRUE(fs::exists(out / (plot + ".dat"))) << plot;
  }
  const bool drawn = run.output.find("gnuplot is not installed") == std::string::npos;
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()),
            static_cast<std::ptrdiff_t>(1 + (drawn ? 3 : 2) * plots.size()));
  if (!drawn) {
    GTEST_SKIP() << "gnuplot is not installed: the PNGs are not drawn (scripts/install-deps.sh "
                    "installs gnuplot-nox)";
  }
  for (const auto& plot : plots) {
    const fs::path png = out / (plot + ".png");
    ASSERT_TRUE(fs::exists(png)) << png;
    EXPECT_EQ(read_file(png).substr(1, 3), "PNG") << png;
  }
}

// Across generations: the models table says which code each model's rows ran, the models whose
// rows ran code built differently are named, and a model the peak table lacks is said to be.
TEST_F(ReportTest, SaysWhichCodeRanAndWhichModelTheTableLacks) {
  const std::string csv = (folder_ / "generations.csv").string();
  {
    kb::ResultsStore store(csv);
    const Card h100{"H100", "GPU-h", 3000}, b200{"B200", "GPU-b", 7000, "134217728", "10.0", "148"};
    const Card gb10{"GB10", "GPU-g", 250, "25165824", "12.1", "48", "2500"};
    for (const auto& [card, code] : {std::pair{h100, "sm_90 (cuda 13.0)"},
                                     {b200, "ptx-jit compute_90 (ptx 9.0)"},
                                     {gb10, "ptx-jit compute_90 (ptx 9.0)"}}) {
      kb::ResultCells row = case_row(card, {"matmul/cublas", "float32", "4096x4096x4096", 1000,
                                          201326592, 137438953472, "fp32"});
      row.code = code;
      store.append(row);
    }
  }
  const fs::path out = folder_ / "generations";
  const auto run = kbtest::kbench({"report", csv, "-o", out.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string md = read_file(out / "report.md");
  EXPECT_NE(md.find("| H100      | 9.0                | sm_90 (cuda 13.0)            | 132 |"),
            std::string::npos) << block_from(md, "| GPU model");
  EXPECT_NE(md.find("| B200      | 10.0               | ptx-jit compute_90 (ptx 9.0) | 148 |"),
            std::string::npos) << block_from(md, "| GPU model");
  EXPECT_NE(md.find("\nNo peak rates for GB10 (compute capability 12.1): kbench's table "
                    "(`core/lib/device/peak_rates.cpp`) lacks its architecture"),
            std::string::npos) << md;
  EXPECT_NE(md.find("- matmul/cublas ran ptx-jit compute_90 (ptx 9.0) on B200 and sm_90 (cuda 13.0) "
                    "on H100 (JIT-compiled from PTX on one side)\n"),
            std::string::npos) << md;
}

// Inf and 1e308 medians made gnuplot fail on the report (exit 3).
TEST_F(ReportTest, MediansThatAreNoMeasurementAreLeftOutNotAnError) {
  const std::string csv = (folder_ / "odd.csv").string();
  {
    kb::ResultsStore store(csv);
    // One measured case, and others each no measurement on one model.
    const double inf = std::numeric_limits<double>::infinity();
    int size = 1024;
    for (const auto& [h100, h200] : std::vector<std::pair<double, double>>{
             {10, 5}, {inf, 5}, {1e308, 1e-5}, {1e-300, 3}, {0, 5}, {-1, 5}, {std::nan(""), 5}}) {
      const std::string shape = std::to_string(size++);
      store.append(case_row({"H100", "GPU-a", 3000}, {"transpose/odd", "float32", shape, h100, 8e6}));
      store.append(case_row({"H200", "GPU-c", 4200}, {"transpose/odd", "float32", shape, h200, 8e6}));
    }
    // A repetition of the measured case, in its run, whose median is none.
    store.append(case_row({"H200", "GPU-c", 4200}, {"transpose/odd", "float32", "1024", 1e308, 8e6}));
  }
  for (const bool history : {false, true}) {
    const std::string page = (folder_ / (history ? "history.html" : "report.html")).string();
    std::vector<std::string> args = {"report", csv, "-o", (folder_ / "out").string(), "--html", page};
    if (history) args.push_back("--history");
    const auto run = kbtest::kbench(args);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.output.find("error"), std::string::npos) << run.output;
    if (!history) continue;
    // The history page holds measurements alone: the case with a 1e308 repetition has no median
    // in that run (as the gate says), and no band of 1e308.
    const std::string html = kbtest::read_file(page);
    const std::string open = "<script type=\"application/json\" id=\"kbench-data\">";
    const auto start = html.find(open);
    ASSERT_NE(start, std::string::npos);
    const auto end = html.find("</script>", start);
    const auto data = nlohmann::json::parse(html.substr(start + open.size(), end - start - open.size()));
    for (const char* column : {"median", "low", "high"}) {
      for (const auto& value : data["values"]["columns"][column]) {
        if (value.is_number()) EXPECT_LT(value.get<double>(), 1e15) << column << ": " << data["values"].dump();
      }
    }
  }
}

TEST_F(ReportTest, WithEnergyTheBestCaseSaysWhatItDidPerJoule) {
  {
    kb::ResultsStore store(csv_);
    // The same case again, later, on each card: now with an energy window (and only there).
    for (const auto& [uuid, name, gb_per_j] :
         {std::tuple{"GPU-a", "H100", "9.000"}, {"GPU-b", "H100", "11.00"}, {"GPU-c", "H200", "14.00"}}) {
      kb::ResultCells row = case_row({name, uuid, name == std::string("H100") ? 3000.0 : 4200.0},
                                   {"transpose/fast", "float32", "8192x8192",
                                    name == std::string("H100") ? 200 : 200 / 1.2, 536870912},
                                   "2026-01-02T00:00:00Z");
      row.energy_j = "0.05";
      row.gb_per_j = gb_per_j;
      store.append(row);
    }
  }
  const fs::path out = folder_ / "report";
  const auto run = kbtest::kbench({"report", csv_, "-o", out.string(), "--family", "transpose"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // The H100's: the median of its two cards, 9 and 11 GB/J.
  EXPECT_EQ(block_from(read_file(out / "report.md"), "| family "),
            "| family    | GPU model | best plugin    | case              | block |     value | of roof |  per joule |\n"
            "|-----------|-----------|----------------|-------------------|-------|----------:|--------:|-----------:|\n"
            "| transpose | H100      | transpose/fast | float32 8192x8192 | -     | 2684 GB/s |   0.895 | 10.00 GB/J |\n"
            "| transpose | H200      | transpose/fast | float32 8192x8192 | -     | 3221 GB/s |   0.767 | 14.00 GB/J |\n");
}

TEST_F(ReportTest, RowsWithCountersSayWhyInTheFamilysSection) {
  {
    kb::ResultsStore store(csv_);
    // The same cases again, later, measured with --metrics on one H100.
    const Card h100{"H100", "GPU-a", 3000};
    kb::ResultCells row = case_row(h100, {"transpose/copy", "float32", "8192x8192", 180, 536870912},
                                 "2026-01-02T00:00:00Z");
    row.counters = "dram_throughput=91.5;dram_read_bytes=268435456;shared_load_bank_conflicts=0";
    store.append(row);
    row = case_row(h100, {"transpose/fast", "float32", "8192x8192", 200, 536870912},
                   "2026-01-02T00:00:00Z");
    row.counters = "dram_throughput=82.25;dram_read_bytes=268435456;l2_hit_rate=49.5";
    store.append(row);
  }
  const fs::path out = folder_ / "report";
  const std::string page = (folder_ / "report.html").string();
  const auto run = kbtest::kbench(
      {"report", csv_, "-o", out.string(), "--family", "transpose", "--html", page});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string md = read_file(out / "report.md");
  // The HTML page's details hold the same table.
  const std::string html = read_file(page);
  EXPECT_NE(html.find("<th class=\"num\">shared_load_bank_conflicts</th>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">268435456</td>"), std::string::npos);
  // And each point's hover its row's counters.
  EXPECT_NE(html.find("dram_throughput=82.25;dram_read_bytes=268435456;l2_hit_rate=49.5"),
            std::string::npos);
  const std::string table = block_from(md, "| dtype   | shape     | GPU model | plugin         | block");
  EXPECT_EQ(table,
            "| dtype   | shape     | GPU model | plugin         | block | GB/s | dram_throughput | dram_read_bytes | shared_load_bank_conflicts | l2_hit_rate |\n"
            "|---------|-----------|-----------|----------------|-------|-----:|----------------:|----------------:|---------------------------:|------------:|\n"
            "| float32 | 8192x8192 | H100      | transpose/copy | -     | 2983 |           91.50 |       268435456 |                          0 |           — |\n"
            "| float32 | 8192x8192 | H100      | transpose/fast | -     | 2684 |           82.25 |       268435456 |                          — |       49.50 |\n")
      << md;
  EXPECT_NE(md.find("Why: the hardware counters of one launch"), std::string::npos) << md;
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
  EXPECT_TRUE(fs::exists(out / "matmul_h100.gp"));
  EXPECT_FALSE(fs::exists(out / "matmul_h100.png"));
}

// A data type whose cases all failed makes a panel with nothing to plot: drawn empty, where gnuplot
// would refuse its `plot` (found by the fuzz test).
TEST_F(ReportTest, APanelWithoutAMeasuredCaseIsDrawnEmptyNotAnError) {
  {
    // A host plugin (no copy bandwidth to draw as a ceiling) at two sizes: float32 ok, float64
    // failed at both.
    kb::ResultsStore store(csv_);
    const Card host{"", "", 0};
    for (const char* shape : {"16", "33"}) {
      for (const char* dtype : {"float32", "float64"}) {
        kb::ResultCells row = case_row(host, {"testing/good", dtype, shape, 0.05, 128});
        row.host = "vm";
        row.device = "host";
        if (std::string(dtype) == "float64") row.status = "verify_failed";
        store.append(row);
      }
    }
  }
  const fs::path out = folder_ / "report";
  const auto run = kbtest::kbench({"report", csv_, "-o", out.string(), "--family", "testing"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output.find("internal error"), std::string::npos) << run.output;
}

TEST_F(ReportTest, NeedsAnOutputFolder) {
  const auto run = kbtest::kbench({"report", csv_});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("'--output' is required"), std::string::npos) << run.output;
}

}  // namespace
