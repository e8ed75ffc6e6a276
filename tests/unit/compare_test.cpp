// `kbench compare`'s pivot rules on synthetic rows (the command's output: tests/process).
#include "analysis/comparison.hpp"
#include "report/comparison_format.hpp"
#include "support/compare_rows.hpp"
#include "support/records.hpp"
#include "util/input_error.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace kb {
namespace {

using kbtest::Case;
using kbtest::make_row;
using kbtest::on;
using kbtest::records_of;
using kbtest::with;

const PivotRow& row_of(const PivotTable& table, const std::string& shape) {
  const auto at = std::find(table.key_columns.begin(), table.key_columns.end(), "shape") -
                  table.key_columns.begin();
  for (const auto& row : table.rows) {
    if (row.key[at] == shape) return row;
  }
  throw std::logic_error("no row " + shape);
}

TEST(Compare, TwoGpusGiveSpeedupsAgainstTheFirstAndAGeometricMean) {
  const Case h100 = on("NVIDIA H100", "GPU-1"), h200 = on("NVIDIA H200", "GPU-2");
  const auto comparison = compare(records_of({make_row(with(h100, "1024", "100")), make_row(with(h200, "1024", "50")),
                                   make_row(with(h100, "2048", "100")), make_row(with(h200, "2048", "200"))}),
                                  {CompareBy::gpu, Metric::time, ""});
  ASSERT_EQ(comparison.tables.size(), 1u);
  const PivotTable& table = comparison.tables.front();
  EXPECT_EQ(table.columns, (std::vector<std::string>{"NVIDIA H100", "NVIDIA H200"}));
  EXPECT_EQ(table.baseline, 0u);
  EXPECT_DOUBLE_EQ(*row_of(table, "1024").cells[1].speedup, 2.0);  // half the time: 2x
  EXPECT_DOUBLE_EQ(*row_of(table, "2048").cells[1].speedup, 0.5);
  EXPECT_FALSE(row_of(table, "1024").cells[0].speedup);  // the baseline has none
  EXPECT_DOUBLE_EQ(*table.geomean[1], 1.0);               // sqrt(2 * 0.5)
  ASSERT_EQ(comparison.per_plugin.size(), 1u);
  EXPECT_DOUBLE_EQ(*comparison.per_plugin[0].geomean[1], 1.0);
}

// A library that picked another kernel on the second GPU: the case is named with both kernels,
// and a case whose rows name no kernels (a file from before the column) or the same ones is not.
TEST(Compare, ACaseThatRanOtherKernelsIsNamedWithBoth) {
  const Case h100 = on("NVIDIA H100", "GPU-1"), h200 = on("NVIDIA H200", "GPU-2");
  ResultCells small_h100 = make_row(with(h100, "1024", "100")),
              small_h200 = make_row(with(h200, "1024", "50")),
              large_h100 = make_row(with(h100, "2048", "400")),
              large_h200 = make_row(with(h200, "2048", "300"));
  small_h100.kernels = "sm90_xmma_gemm_128x128 [cuBLAS] x1";
  small_h200.kernels = "sm90_xmma_gemm_256x128 [cuBLAS] x1";
  large_h100.kernels = large_h200.kernels = "sm90_xmma_gemm_256x128 [cuBLAS] x1";
  const auto comparison = compare(records_of({small_h100, small_h200, large_h100, large_h200,
                                              make_row(with(h100, "4096", "900")),
                                              make_row(with(h200, "4096", "800"))}),
                                  {CompareBy::gpu, Metric::time, ""});
  ASSERT_EQ(comparison.kernels_changed.size(), 1u);
  const KernelsDifference& d = comparison.kernels_changed.front();
  EXPECT_EQ(d.case_text.find("1024") != std::string::npos, true) << d.case_text;
  EXPECT_EQ(d.column, "NVIDIA H200");
  EXPECT_EQ(d.kernels, small_h200.kernels);
  EXPECT_EQ(d.against_column, "NVIDIA H100");
  EXPECT_EQ(d.against, small_h100.kernels);
  const std::string text = comparison_markdown(comparison);
  EXPECT_NE(text.find("Other kernels ran"), std::string::npos) << text;
  EXPECT_NE(text.find("sm90_xmma_gemm_256x128 [cuBLAS] x1 on NVIDIA H200, "
                      "sm90_xmma_gemm_128x128 [cuBLAS] x1 on NVIDIA H100"),
            std::string::npos)
      << text;
}

// A host plugin's rows ran on no card: its column is there all the same, beside the GPU plugins,
// with no card to count.
TEST(Compare, AHostPluginHasItsColumnBesideTheGpuPlugins) {
  Case host = on("", "", with({}, "1024", "800"));
  host.plugin = "transpose/cpu";
  const Case gpu = on("NVIDIA H100", "GPU-1", with({}, "1024", "100"));
  const auto comparison =
      compare(records_of({make_row(host), make_row(gpu)}), {CompareBy::plugin, Metric::time, ""});
  ASSERT_EQ(comparison.tables.size(), 1u);
  const PivotTable& table = comparison.tables.front();
  EXPECT_EQ(table.columns, (std::vector<std::string>{"transpose/cpu", "transpose/fast"}));
  EXPECT_DOUBLE_EQ(*row_of(table, "1024").cells[1].speedup, 8.0);
}

// A row the family refereed beside one its plugin refereed is said to be so, naming the plugin;
// rows all judged one way, as every file from before the `referee` column, say nothing.
TEST(Compare, SelfRefereedRowsBesideFamilyRefereedOnesAreNamed) {
  const Case h100 = on("NVIDIA H100", "GPU-1"), h200 = on("NVIDIA H200", "GPU-2");
  std::vector<ResultCells> rows = {make_row(with(h100, "1024", "100")),
                                 make_row(with(h200, "1024", "50"))};
  Comparison comparison = compare(records_of(rows), {CompareBy::gpu, Metric::time, ""});
  EXPECT_TRUE(comparison.self_refereed.empty());
  EXPECT_EQ(comparison_markdown(comparison).find("Not like for like"), std::string::npos);

  rows[1].referee = "family";
  comparison = compare(records_of(rows), {CompareBy::gpu, Metric::time, ""});
  EXPECT_EQ(comparison.self_refereed, (std::vector<std::string>{rows[0].plugin}));
  EXPECT_NE(comparison_markdown(comparison).find("Not like for like: rows of " +
                                                 rows[0].plugin +
                                                 " were refereed by the plugin itself"),
            std::string::npos)
      << comparison_markdown(comparison);

  rows[0].referee = "family";
  comparison = compare(records_of(rows), {CompareBy::gpu, Metric::time, ""});
  EXPECT_TRUE(comparison.self_refereed.empty());
}

// Rows from a kernel file name it and its content hash; a file edited between the rows compared
// is said to be, its hashes in the order the rows hold them. Files from before the kernel_*
// columns (and plugins' rows) say nothing.
TEST(Compare, KernelFilesAreNamedAndAnEditedOneIsSaidToBe) {
  const Case h100 = on("NVIDIA H100", "GPU-1"), h200 = on("NVIDIA H200", "GPU-2");
  std::vector<ResultCells> rows = {make_row(with(h100, "1024", "100")),
                                 make_row(with(h200, "1024", "50"))};
  Comparison comparison = compare(records_of(rows), {CompareBy::gpu, Metric::time, ""});
  EXPECT_TRUE(comparison.kernel_files.empty());
  EXPECT_EQ(comparison_markdown(comparison).find("kernel files"), std::string::npos);

  const std::string a(64, 'a'), b(64, 'b');
  for (auto& row : rows) {
    row.kernel_file = "/k/tile.cu";
    row.kernel_sha256 = a;
    row.kernel_compiler = "nvrtc 13.0 -arch=sm_90 -std=c++17, entry k";
  }
  comparison = compare(records_of(rows), {CompareBy::gpu, Metric::time, ""});
  ASSERT_EQ(comparison.kernel_files.size(), 1u);
  EXPECT_EQ(comparison.kernel_files[0].plugin, rows[0].plugin);
  EXPECT_EQ(comparison.kernel_files[0].sha256s, (std::vector<std::string>{a}));
  EXPECT_NE(comparison_markdown(comparison).find("- " + rows[0].plugin +
                                                 ": /k/tile.cu, sha256 aaaaaaaaaaaa\n"),
            std::string::npos)
      << comparison_markdown(comparison);

  rows[1].kernel_sha256 = b;
  comparison = compare(records_of(rows), {CompareBy::gpu, Metric::time, ""});
  EXPECT_EQ(comparison.kernel_files[0].sha256s, (std::vector<std::string>{a, b}));
  EXPECT_NE(comparison_markdown(comparison).find(
                ": /k/tile.cu, edited between these rows (sha256 aaaaaaaaaaaa, then bbbbbbbbbbbb): "
                "its rows hold different code"),
            std::string::npos)
      << comparison_markdown(comparison);
}

// The code each GPU column ran, and a plugin whose rows ran code the driver compiled from PTX on
// one side and machine code on the other, or code of different compilers: named, against the
// column its speed-up is against. Files from before the `code` column say nothing.
TEST(Compare, CodeBuiltDifferentlyOnTwoModelsIsSaidToBe) {
  const Case h100 = on("NVIDIA H100", "GPU-1"), b200 = on("NVIDIA B200", "GPU-2");
  std::vector<ResultCells> rows = {make_row(with(h100, "1024", "100")),
                                 make_row(with(b200, "1024", "50"))};
  Comparison comparison = compare(records_of(rows), {CompareBy::gpu, Metric::time, ""});
  EXPECT_TRUE(comparison.codes.empty());
  EXPECT_EQ(comparison_markdown(comparison).find("`code`"), std::string::npos);

  rows[0].code = "sm_90 (cuda 13.0)";
  rows[1].code = "sm_100 (cuda 13.0)";
  comparison = compare(records_of(rows), {CompareBy::gpu, Metric::time, ""});
  ASSERT_EQ(comparison.codes.size(), 2u);
  EXPECT_EQ(comparison.codes[1].column, "NVIDIA H100");  // the columns' order: B200, H100
  EXPECT_EQ(comparison.codes[1].codes, (std::vector<std::string>{"sm_90 (cuda 13.0)"}));
  EXPECT_TRUE(comparison.built_differently.empty());  // native code of one compiler on each
  EXPECT_NE(comparison_markdown(comparison).find(
                "The code each column ran (`code` column): NVIDIA B200: sm_100 (cuda 13.0); "
                "NVIDIA H100: sm_90 (cuda 13.0).\n"),
            std::string::npos)
      << comparison_markdown(comparison);

  rows[1].code = "ptx-jit compute_90 (ptx 9.0)";
  comparison = compare(records_of(rows), {CompareBy::gpu, Metric::time, "H100"});
  ASSERT_EQ(comparison.built_differently.size(), 1u);
  const CodeDifference& jit = comparison.built_differently.front();
  EXPECT_TRUE(jit.jit_on_one_side);
  EXPECT_EQ(code_difference_text(jit),
            rows[0].plugin + " ran ptx-jit compute_90 (ptx 9.0) on NVIDIA B200 and sm_90 "
            "(cuda 13.0) on NVIDIA H100 (JIT-compiled from PTX on one side)");
  EXPECT_NE(comparison_markdown(comparison).find("\nBuilt differently: these speed-ups weigh the "
                                                 "compilers as well as the GPUs.\n\n- "),
            std::string::npos);

  rows[1].code = "sm_100 (cuda 12.8)";
  comparison = compare(records_of(rows), {CompareBy::gpu, Metric::time, ""});
  ASSERT_EQ(comparison.built_differently.size(), 1u);
  EXPECT_FALSE(comparison.built_differently.front().jit_on_one_side);
  EXPECT_EQ(comparison.built_differently.front().against, "sm_100 (cuda 12.8)");  // the baseline's
  // Who made a compressed cubin is unknown: nothing to compare.
  rows[1].code = "sm_100";
  EXPECT_TRUE(compare(records_of(rows), {CompareBy::gpu, Metric::time, ""}).built_differently.empty());
}

// An inf or 1e308 median made the geometric mean inf; nan, 0 and -1 were values.
TEST(Compare, MediansThatAreNoMeasurementAreLeftOutOfValuesAndMeans) {
  const Case h100 = on("NVIDIA H100", "GPU-1"), h200 = on("NVIDIA H200", "GPU-2");
  std::vector<ResultCells> rows = {make_row(with(h100, "1024", "100")), make_row(with(h200, "1024", "50"))};
  int size = 2048;
  for (const char* bad : {"nan", "inf", "-inf", "1e308", "1e-300", "0", "-1"}) {
    const std::string shape = std::to_string(size++);
    rows.push_back(make_row(with(h100, shape, bad)));
    rows.push_back(make_row(with(h200, shape, "10")));
    rows.push_back(make_row(with(h100, shape + "x2", "10")));
    rows.push_back(make_row(with(h200, shape + "x2", bad)));
  }
  for (const Metric metric : {Metric::time, Metric::gbps}) {
    const auto comparison = compare(records_of(rows), {CompareBy::gpu, metric, ""});
    const PivotTable& table = comparison.tables.front();
    EXPECT_DOUBLE_EQ(*table.geomean[1], 2.0);  // the one measured case alone
    for (const auto& row : table.rows) {
      for (const auto& cell : row.cells) {
        if (cell.state == PivotCell::State::ok) EXPECT_TRUE(std::isfinite(cell.value));
        if (cell.speedup) EXPECT_TRUE(std::isfinite(*cell.speedup));
      }
    }
  }
}

TEST(Compare, ThroughputSpeedupsAlsoMeanBetterAboveOne) {
  const Case h100 = on("NVIDIA H100", "GPU-1"), h200 = on("NVIDIA H200", "GPU-2");
  const auto comparison = compare(records_of({make_row(with(h100, "1024", "100")), make_row(with(h200, "1024", "50"))}),
                                  {CompareBy::gpu, Metric::gbps, ""});
  EXPECT_NEAR(*comparison.tables[0].rows[0].cells[1].speedup, 2.0, 1e-9);
}

TEST(Compare, MissingAndFailedCellsHaveNoSpeedup) {
  Case crashed = on("NVIDIA H200", "GPU-2", with({}, "2048", "1"));
  crashed.status = "crashed";
  const auto comparison = compare(records_of({make_row(with(on("NVIDIA H100", "GPU-1"), "1024", "100")),
                                   make_row(with(on("NVIDIA H100", "GPU-1"), "2048", "100")),
                                   make_row(crashed)}),
                                  {CompareBy::gpu, Metric::time, ""});
  const PivotTable& table = comparison.tables.front();
  EXPECT_EQ(row_of(table, "1024").cells[1].state, PivotCell::State::missing);
  EXPECT_EQ(row_of(table, "2048").cells[1].state, PivotCell::State::not_ok);
  EXPECT_EQ(row_of(table, "2048").cells[1].status, "crashed");
  EXPECT_FALSE(table.geomean[1]);
}

TEST(Compare, DifferencesInsideTheNoiseAreMarked) {
  Case a = on("A", "GPU-1", with({}, "1", "100")), b = on("B", "GPU-2", with({}, "1", "101"));
  a.noise = b.noise = "0.006";  // 1% apart, 1.2% of noise together
  auto comparison = compare(records_of({make_row(a), make_row(b)}), {CompareBy::gpu, Metric::time, ""});
  EXPECT_TRUE(comparison.tables[0].rows[0].cells[1].within_noise);
  a.noise = b.noise = "0.004";  // 0.8% of noise together
  comparison = compare(records_of({make_row(a), make_row(b)}), {CompareBy::gpu, Metric::time, ""});
  EXPECT_FALSE(comparison.tables[0].rows[0].cells[1].within_noise);
}

TEST(Compare, TheLatestRowOfARepeatedCaseWins) {
  Case early = on("A", "GPU-1", with({}, "1", "500")), late = early, other = on("B", "GPU-2", with({}, "1", "100"));
  early.timestamp = "2026-01-02T00:00:00Z";
  late.timestamp = "2026-01-03T00:00:00Z";
  late.median_us = "200";
  // Read order must not matter: the later timestamp comes first in the file here.
  const auto comparison = compare(records_of({make_row(late), make_row(early), make_row(other)}),
                                  {CompareBy::gpu, Metric::time, ""});
  EXPECT_DOUBLE_EQ(comparison.tables[0].rows[0].cells[0].value, 200);
}

TEST(Compare, LessEnergyIsBetterAndEfficiencyIsWorkPerJouleByTheBound) {
  ResultCells h100 = make_row(on("NVIDIA H100", "GPU-1")), h200 = make_row(on("NVIDIA H200", "GPU-2"));
  for (ResultCells* row : {&h100, &h200}) {
    row->peak = "copy";
    row->bytes = "2000000000";  // 2 GB per launch, past any L2
    row->flops = "500000000";
  }
  h100.energy_j = "0.5";
  h100.gb_per_j = "4.000";
  h100.gflop_per_j = "1.000";
  h200.energy_j = "0.4";
  h200.gb_per_j = "5.000";
  h200.gflop_per_j = "1.250";
  const auto energy = compare(records_of({h100, h200}), {CompareBy::gpu, Metric::energy, ""});
  EXPECT_DOUBLE_EQ(energy.tables[0].rows[0].cells[1].value, 0.4);
  EXPECT_DOUBLE_EQ(*energy.tables[0].rows[0].cells[1].speedup, 1.25);  // less energy: better
  // A memory-bound case is worth its bytes per joule.
  const auto efficiency = compare(records_of({h100, h200}), {CompareBy::gpu, Metric::efficiency, ""});
  EXPECT_DOUBLE_EQ(efficiency.tables[0].rows[0].cells[0].value, 4.0);
  EXPECT_DOUBLE_EQ(*efficiency.tables[0].rows[0].cells[1].speedup, 1.25);
  // A compute-bound one its flops.
  h100.peak = "fp32";
  h100.flops = "10000000000";
  EXPECT_EQ(metric_value(record_of(h100), Metric::efficiency), 1.0);
}

TEST(Compare, ByDeviceTellsCardsSharingANameApartByUuid) {
  const auto comparison = compare(records_of({make_row(on("NVIDIA H200", "GPU-11111111-aaaa")),
                                   make_row(on("NVIDIA H200", "GPU-22222222-bbbb"))}),
                                  {CompareBy::device, Metric::time, ""});
  EXPECT_EQ(comparison.tables[0].columns,
            (std::vector<std::string>{"NVIDIA H200 GPU-11111111", "NVIDIA H200 GPU-22222222"}));
}

TEST(Compare, ByGpuPoolsTheCardsOfAModelIntoTheirMedian) {
  const auto comparison = compare(records_of({make_row(on("NVIDIA H100", "GPU-1", with({}, "1", "100"))),
                                   make_row(on("NVIDIA H100", "GPU-2", with({}, "1", "110"))),
                                   make_row(on("NVIDIA H100", "GPU-3", with({}, "1", "104"))),
                                   make_row(on("NVIDIA H200", "GPU-4", with({}, "1", "52")))}),
                                  {CompareBy::gpu, Metric::time, ""});
  const PivotTable& table = comparison.tables.front();
  ASSERT_EQ(table.columns, (std::vector<std::string>{"NVIDIA H100", "NVIDIA H200"}));
  EXPECT_EQ(table.cards, (std::vector<std::size_t>{3, 1}));
  const PivotCell& h100 = table.rows[0].cells[0];
  EXPECT_DOUBLE_EQ(h100.value, 104);
  EXPECT_EQ(h100.cards, 3u);
  EXPECT_DOUBLE_EQ(h100.spread, 10.0 / 104);
  EXPECT_DOUBLE_EQ(h100.noise, 5.0 / 104);  // half the spread: more than the rows' 0.5%
  EXPECT_DOUBLE_EQ(*table.rows[0].cells[1].speedup, 2.0);
}

TEST(Compare, TheSpreadBetweenCardsIsNoise) {
  // 4% apart: inside the H100 cards' spread of 10%, so not a finding.
  auto comparison = compare(records_of({make_row(on("NVIDIA H100", "GPU-1", with({}, "1", "100"))),
                             make_row(on("NVIDIA H100", "GPU-2", with({}, "1", "110"))),
                             make_row(on("NVIDIA H100", "GPU-3", with({}, "1", "104"))),
                             make_row(on("NVIDIA H200", "GPU-4", with({}, "1", "100")))}),
                            {CompareBy::gpu, Metric::time, ""});
  EXPECT_TRUE(comparison.tables[0].rows[0].cells[1].within_noise);
  // The same rows by device: each card against the first, inside its rows' noise alone.
  comparison = compare(records_of({make_row(on("NVIDIA H100", "GPU-1", with({}, "1", "100"))),
                        make_row(on("NVIDIA H100", "GPU-2", with({}, "1", "104")))}),
                       {CompareBy::device, Metric::time, ""});
  EXPECT_FALSE(comparison.tables[0].rows[0].cells[1].within_noise);
}

TEST(Compare, EachCardCountsWithItsLatestRowAndFailedCardsAreLeftOut) {
  Case old = on("NVIDIA H100", "GPU-1", with({}, "1", "500")), latest = old;
  old.timestamp = "2026-01-01T00:00:00Z";
  latest.timestamp = "2026-01-02T00:00:00Z";
  latest.median_us = "100";
  Case crashed = on("NVIDIA H100", "GPU-2", with({}, "1", "1"));
  crashed.status = "crashed";
  const auto comparison = compare(records_of({make_row(latest), make_row(old), make_row(crashed)}),
                                  {CompareBy::gpu, Metric::time, ""});
  const PivotCell& cell = comparison.tables[0].rows[0].cells[0];
  EXPECT_EQ(cell.state, PivotCell::State::ok);
  EXPECT_DOUBLE_EQ(cell.value, 100);
  EXPECT_EQ(cell.cards, 1u);
  // With no card passing, the cell is the latest failure.
  const auto failed = compare(records_of({make_row(crashed), make_row(on("NVIDIA H200", "GPU-3"))}),
                              {CompareBy::gpu, Metric::time, ""});
  EXPECT_EQ(failed.tables[0].rows[0].cells[0].status, "crashed");
}

TEST(Compare, ByPluginMakesATablePerFamilyWithTheBestBlock) {
  Case copy = with({}, "1024", "50"), naive = with({}, "1024", "200"), naive_fast = naive;
  copy.plugin = "transpose/copy";
  naive.plugin = naive_fast.plugin = "transpose/naive";
  naive.block = "32x8";
  naive_fast.block = "16x16";
  naive_fast.median_us = "100";
  Case matmul = with({}, "64x64x64", "10");
  matmul.plugin = "matmul/cublas";
  const auto comparison = compare(records_of({make_row(copy), make_row(naive), make_row(naive_fast), make_row(matmul)}),
                                  {CompareBy::plugin, Metric::time, "copy"});
  ASSERT_EQ(comparison.tables.size(), 2u);
  const PivotTable& transpose = comparison.tables[1];
  EXPECT_EQ(transpose.title, "transpose");
  EXPECT_EQ(transpose.columns, (std::vector<std::string>{"transpose/copy", "transpose/naive"}));
  EXPECT_EQ(transpose.rows[0].cells[1].block, "16x16");
  EXPECT_DOUBLE_EQ(*transpose.rows[0].cells[1].speedup, 0.5);
  EXPECT_TRUE(comparison.per_plugin.empty());
}

TEST(Compare, AnUnknownBaselineNamesItAndTheColumns) {
  try {
    compare(records_of({make_row(on("NVIDIA H100", "GPU-1")), make_row(on("NVIDIA H200", "GPU-2"))}),
            {CompareBy::gpu, Metric::time, "A100"});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "unknown baseline 'A100'; the columns are NVIDIA H100, NVIDIA H200");
  }
  // A text only one column contains is enough.
  const auto comparison = compare(records_of({make_row(on("NVIDIA H100", "GPU-1")), make_row(on("NVIDIA H200", "GPU-2"))}),
                                  {CompareBy::gpu, Metric::time, "H200"});
  EXPECT_EQ(comparison.tables[0].baseline, 1u);
}

// `--metric` of a counter `kbench run --metrics` wrote: its value, the ratio in its better
// direction, each plugin at its fastest block (the counter says why that one is fast).
kb::ResultCells with_counters(const Case& c, const std::string& counters) {
  kb::ResultCells row = make_row(c);
  row.counters = counters;
  return row;
}

TEST(Compare, ACounterComparesPluginsAtTheirFastestBlock) {
  Case shared = with({}, "8192", "400"), padded = with({}, "8192", "300"), padded_slow = padded;
  shared.plugin = "transpose/shared";
  padded.plugin = padded_slow.plugin = "transpose/shared_padded";
  shared.block = padded.block = "32x32";
  padded_slow.block = "16x16";
  padded_slow.median_us = "350";
  const auto rows = records_of(
      {with_counters(shared, "shared_load_bank_conflicts=8388608;dram_throughput=60.5"),
       with_counters(padded, "shared_load_bank_conflicts=0;dram_throughput=80.25"),
       // Fewer conflicts at a slower block: not the one shown.
       with_counters(padded_slow, "shared_load_bank_conflicts=0;dram_throughput=70")});
  auto comparison = compare(rows, {CompareBy::plugin, Metric::counter("dram__throughput.avg.pct_of_peak_sustained_elapsed"), "shared"});
  ASSERT_EQ(comparison.tables.size(), 1u);
  const PivotTable& table = comparison.tables[0];
  ASSERT_EQ(table.columns, (std::vector<std::string>{"transpose/shared", "transpose/shared_padded"}));
  EXPECT_EQ(table.rows[0].cells[1].block, "32x32");
  EXPECT_DOUBLE_EQ(table.rows[0].cells[1].value, 80.25);
  EXPECT_DOUBLE_EQ(*table.rows[0].cells[1].speedup, 80.25 / 60.5);  // larger is better
  EXPECT_EQ(table.rows[0].cells[1].noise, 0.0);                      // a counter has no interval
  // Bank conflicts: smaller is better, and none is a value without a ratio.
  comparison = compare(rows, {CompareBy::plugin, parse_metric("shared_load_bank_conflicts"), "shared"});
  const PivotCell& none = comparison.tables[0].rows[0].cells[1];
  EXPECT_EQ(none.state, PivotCell::State::ok);
  EXPECT_EQ(none.value, 0.0);
  EXPECT_FALSE(none.speedup);
  const std::string markdown = comparison_markdown(comparison);
  EXPECT_NE(markdown.find("counter shared_load_bank_conflicts"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("smaller is better"), std::string::npos) << markdown;
}

TEST(Compare, RowsWithoutTheCounterHaveNothingToCompare) {
  const auto rows = records_of({make_row(with({}, "1024", "100"))});
  try {
    compare(rows, {CompareBy::gpu, parse_metric("l2_hit_rate"), ""});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "no ok row reports l2_hit_rate");
  }
  try {
    parse_metric("l2_hits");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown --metric 'l2_hits'"), std::string::npos);
  }
}

TEST(Compare, NaturalOrderSortsNumbersByValue) {
  EXPECT_TRUE(natural_less("512", "2048"));
  EXPECT_TRUE(natural_less("32x8", "32x32"));
  EXPECT_FALSE(natural_less("8192x8192", "8192x4096"));
}

}  // namespace
}  // namespace kb

namespace kb {
namespace {

ResultCells ladder_row(const std::string& plugin, const std::string& median) {
  ResultCells row;
  row.timestamp_utc = "2026-11-22T00:00:00Z";
  row.run_id = "r";
  row.gpu_name = "GPU";
  row.gpu_uuid = "GPU-1";
  row.family = "reduce";
  row.plugin = plugin;
  row.dtype = "int32";
  row.op = "sumsq";
  row.shape = "1048576";
  row.block = "-";
  row.cache = "hot";
  row.status = "ok";
  row.median_us = median;
  row.noise = "0.001";
  return row;
}

TEST(CompareLadder, EachColumnAgainstTheOneBeforeInTheGivenOrder) {
  const std::vector<ResultCells> rows = {ladder_row("reduce/tree", "10"),
                                       ladder_row("reduce/single_thread", "1000"),
                                       ladder_row("reduce/chunked", "50")};
  CompareRequest request;
  request.by = CompareBy::plugin;
  request.ladder = true;
  request.column_order = {"reduce/single_thread", "reduce/chunked", "reduce/t*"};
  const Comparison comparison = compare(records_of(rows), request);
  const PivotTable& table = comparison.tables.front();
  ASSERT_EQ(table.columns,
            (std::vector<std::string>{"reduce/single_thread", "reduce/chunked", "reduce/tree"}));
  const auto& cells = table.rows.front().cells;
  EXPECT_FALSE(cells[0].speedup);
  EXPECT_DOUBLE_EQ(*cells[1].speedup, 20.0);  // 1000 us -> 50 us
  EXPECT_DOUBLE_EQ(*cells[2].speedup, 5.0);   // 50 us -> 10 us
}

}  // namespace
}  // namespace kb
