// `kbench compare`'s output, locked line for line: CSV files written through the results store,
// the kbench executable run on them.
#include "store/results_store.hpp"
#include "support/compare_rows.hpp"
#include "support/kbench_process.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

namespace kb {
namespace {

using kbtest::Case;
using kbtest::make_row;
using kbtest::on;
using kbtest::with;

// The cases' rows written through the results store into a fresh folder, removed with it.
class ResultsFile {
 public:
  explicit ResultsFile(const std::vector<Case>& cases)
      : folder_(boost::filesystem::temp_directory_path() /
                boost::filesystem::unique_path("kbench-compare-%%%%-%%%%")),
        path_((folder_ / "results.csv").string()) {
    ResultsStore store(path_);
    for (const auto& c : cases) store.append(make_row(c));
  }
  ~ResultsFile() { boost::filesystem::remove_all(folder_); }
  const std::string& path() const { return path_; }

 private:
  boost::filesystem::path folder_;
  std::string path_;
};

// The output test: a CSV written through the results store, `kbench compare` run on it, and its
// markdown locked line for line.
TEST(CompareOutput, MarkdownByGpu) {
  const Case h100 = on("NVIDIA H100", "GPU-1"), h200 = on("NVIDIA H200", "GPU-2");
  const ResultsFile csv({with(h100, "1024", "100"), with(h200, "1024", "60"),
                         with(h100, "2048", "400"),
                         with(h200, "2048", "398"),  // 0.5% apart: inside 1% of noise
                         with(h100, "4096", "1600")});
  const auto run = kbtest::kbench({"compare", csv.path(), "--by", "gpu"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output,
            "Each cell: the median time (us) of the case's latest row, and in parentheses the "
            "speed-up vs the baseline GPU model (> 1 = better; ~ = inside the measured noise). — "
            "= no row; a status = the case did not pass.\n"
            "\n"
            "| family         | plugin         | dtype   | shape | block | NVIDIA H100 (baseline) |    NVIDIA H200 |\n"
            "|----------------|----------------|---------|-------|-------|-----------------------:|---------------:|\n"
            "| transpose      | transpose/fast | float32 | 1024  | -     |                  100.0 |  60.00 (1.67x) |\n"
            "| transpose      | transpose/fast | float32 | 2048  | -     |                  400.0 | 398.0 (~1.01x) |\n"
            "| transpose      | transpose/fast | float32 | 4096  | -     |                   1600 |              — |\n"
            "| geometric mean |                |         |       |       |               baseline |          1.29x |\n"
            "\n"
            "Geometric mean of the speed-up per plugin, over the cases it shares with the "
            "baseline:\n"
            "\n"
            "| plugin         | NVIDIA H100 (baseline) | NVIDIA H200 |\n"
            "|----------------|-----------------------:|------------:|\n"
            "| transpose/fast |               baseline |       1.29x |\n");
}

TEST(CompareOutput, MarkdownByGpuShowsTheCardsOfEachModel) {
  const ResultsFile csv({on("NVIDIA H100", "GPU-1", with({}, "1024", "100")),
                         on("NVIDIA H100", "GPU-2", with({}, "1024", "102")),
                         on("NVIDIA H200", "GPU-3", with({}, "1024", "70"))});
  const auto run = kbtest::kbench({"compare", csv.path(), "--by", "gpu"});
  const auto csv_run = kbtest::kbench({"compare", csv.path(), "--by", "gpu", "--format", "csv"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output,
            "Each cell: the median time (us) of the case's latest row, and in parentheses the "
            "speed-up vs the baseline GPU model (> 1 = better; ~ = inside the measured noise). — = "
            "no row; a status = the case did not pass. Where a column ran on several cards: the "
            "median over each card's latest row, ± half the range between the cards (counted in "
            "the noise).\n"
            "\n"
            "| family         | plugin         | dtype   | shape | block | NVIDIA H100, 2 cards (baseline) |   NVIDIA H200 |\n"
            "|----------------|----------------|---------|-------|-------|--------------------------------:|--------------:|\n"
            "| transpose      | transpose/fast | float32 | 1024  | -     |                    101.0 ±0.99% | 70.00 (1.44x) |\n"
            "| geometric mean |                |         |       |       |                        baseline |         1.44x |\n"
            "\n"
            "Geometric mean of the speed-up per plugin, over the cases it shares with the "
            "baseline:\n"
            "\n"
            "| plugin         | NVIDIA H100, 2 cards (baseline) | NVIDIA H200 |\n"
            "|----------------|--------------------------------:|------------:|\n"
            "| transpose/fast |                        baseline |       1.44x |\n");
  ASSERT_EQ(csv_run.exit_code, 0) << csv_run.output;
  EXPECT_EQ(csv_run.output.substr(0, csv_run.output.find('\n')),
            "row,family,plugin,dtype,shape,block,NVIDIA H100 median_us,NVIDIA H100 speedup,"
            "NVIDIA H100 within_noise,NVIDIA H100 cards,NVIDIA H100 spread,NVIDIA H200 median_us,"
            "NVIDIA H200 speedup,NVIDIA H200 within_noise,NVIDIA H200 cards,NVIDIA H200 spread");
  EXPECT_NE(csv_run.output.find("case,transpose,transpose/fast,float32,1024,-,101,,,2,0.0198,70,"
                                "1.4429,0,1,0.0000\n"),
            std::string::npos)
      << csv_run.output;
}

TEST(CompareOutput, EnergyIsAbsentFromFilesWithoutTheEnergyColumns) {
  const ResultsFile csv({on("NVIDIA H100", "GPU-1"), on("NVIDIA H200", "GPU-2")});
  const auto energy = kbtest::kbench({"compare", csv.path(), "--by", "gpu", "--metric", "energy"});
  const auto efficiency =
      kbtest::kbench({"compare", csv.path(), "--by", "gpu", "--metric", "efficiency"});
  EXPECT_EQ(energy.exit_code, 2);
  EXPECT_EQ(energy.output, "kbench: error: no ok row reports energy_j\n");
  EXPECT_EQ(efficiency.output, "kbench: error: no ok row reports efficiency\n");
}

// `--metric` of a counter of `kbench run --metrics`: each cell the counter of the fastest block,
// the ratio in the counter's better direction.
TEST(CompareOutput, ACounterOfTheCountersColumn) {
  const auto folder = boost::filesystem::temp_directory_path() /
                      boost::filesystem::unique_path("kbench-compare-%%%%-%%%%");
  const std::string path = (folder / "results.csv").string();
  {
    ResultsStore store(path);
    Case shared = with({}, "8192", "400"), padded = with({}, "8192", "300");
    shared.plugin = "transpose/shared";
    padded.plugin = "transpose/shared_padded";
    ResultCells row = make_row(shared);
    row.counters = "dram_throughput=60.5;shared_load_bank_conflicts=8388608";
    store.append(row);
    row = make_row(padded);
    row.counters = "dram_throughput=80.25;shared_load_bank_conflicts=0";
    store.append(row);
  }
  const auto run = kbtest::kbench({"compare", path, "--by", "plugin", "--metric",
                                   "dram_throughput", "--baseline", "shared"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("Each cell: the counter dram_throughput (DRAM throughput"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find(" 80.25 (1.33x) |"), std::string::npos) << run.output;
  const auto conflicts = kbtest::kbench({"compare", path, "--by", "plugin", "--metric",
                                         "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                                         "--baseline", "shared", "--format", "csv"});
  ASSERT_EQ(conflicts.exit_code, 0) << conflicts.output;
  EXPECT_NE(conflicts.output.find("transpose/shared_padded shared_load_bank_conflicts"),
            std::string::npos)
      << conflicts.output;
  boost::filesystem::remove_all(folder);
}

TEST(CompareOutput, BadInputIsOneLine) {
  const auto run = kbtest::kbench({"compare", "/nonexistent.csv", "--by", "gpu"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.output, "kbench: error: cannot read results file '/nonexistent.csv'\n");
  const auto metric = kbtest::kbench({"compare", "/nonexistent.csv", "--by", "gpu", "--metric", "watts"});
  EXPECT_EQ(metric.output, "kbench: error: unknown --metric 'watts' (time, gbps, gflops, energy, "
                           "efficiency, or a counter of kbench run --metrics such as "
                           "dram_throughput or dram__bytes_read.sum)\n");
  const auto by = kbtest::kbench({"compare", "/nonexistent.csv", "--by", "host"});
  EXPECT_EQ(by.output, "kbench: error: unknown --by 'host' (gpu, device, run or plugin)\n");
}

}  // namespace
}  // namespace kb
