// The expected scaling between GPU models and the roofline: the rules on synthetic rows, and the
// numbers the committed H100 and H200 results must give.
#include "analysis/case_bound.hpp"
#include "analysis/gpu_model.hpp"
#include "analysis/roofline.hpp"
#include "analysis/scaling.hpp"
#include "store/result_selection.hpp"
#include "support/case_rows.hpp"

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace kb {
namespace {

using kbtest::CaseSpec;
using kbtest::Card;
using kbtest::case_record;

const Card kH100a{"NVIDIA H100", "GPU-a", 3000}, kH100b{"NVIDIA H100", "GPU-b", 3000};
const Card kH200{"NVIDIA H200", "GPU-c", 4200};  // 1.4x the H100's copy bandwidth

CaseSpec copy_8192(double us) { return {"transpose/copy", "float32", "8192x8192", us, 536870912}; }
CaseSpec fast_8192(double us) { return {"transpose/fast", "float32", "8192x8192", us, 536870912}; }
CaseSpec sgemm(double us) {
  return {"matmul/cublas", "float32", "4096x4096x4096", us, 201326592, 137438953472, "fp32"};
}
CaseSpec in_l2(const std::string& plugin, double us) {
  return {plugin, "int32", "1048576", us, 4194312, 2097152, "copy", "sumsq"};
}

std::vector<ResultRecord> two_models() {
  std::vector<ResultRecord> rows;
  for (const Card& card : {kH100a, kH100b}) {
    rows.push_back(case_record(card, copy_8192(180)));
    rows.push_back(case_record(card, fast_8192(200)));
    rows.push_back(case_record(card, sgemm(2700)));
    rows.push_back(case_record(card, in_l2("reduce/tree", 20)));
    rows.push_back(case_record(card, {"transpose/fast", "float32", "1024x1024", 5, 8388608}));
  }
  rows.push_back(case_record(kH200, copy_8192(180 / 1.4)));  // scaled with the copy bandwidth
  rows.push_back(case_record(kH200, fast_8192(200 / 1.2)));  // did not
  rows.push_back(case_record(kH200, sgemm(2700)));           // equal FP32 peaks: equal times
  rows.push_back(case_record(kH200, in_l2("reduce/tree", 25)));
  rows.push_back(case_record(kH200, {"transpose/fast", "float32", "1024x1024", 5, 8388608}));
  return rows;
}

const CaseScaling& find_case(const ModelScaling& scaling, const std::string& plugin,
                             const std::string& dtype, const std::string& shape) {
  for (const auto& c : scaling.cases) {
    if (c.plugin == plugin && c.dtype == dtype && c.shape == shape) return c;
  }
  throw std::logic_error("no case " + plugin + " " + dtype + " " + shape);
}

TEST(Scaling, EachPluginAgainstWhatItsBoundPredicts) {
  const auto rows = two_models();
  const auto scalings = expected_scaling(rows, gpu_models(rows));
  ASSERT_EQ(scalings.size(), 1u);
  const ModelScaling& s = scalings.front();
  EXPECT_EQ(s.baseline, "NVIDIA H100");
  EXPECT_EQ(s.other, "NVIDIA H200");
  EXPECT_DOUBLE_EQ(*s.copy_ratio, 1.4);
  ASSERT_EQ(s.plugins.size(), 4u);
  // Furthest from its prediction first; an L2-bound plugin has none and comes last.
  EXPECT_EQ(s.plugins.front().plugin, "transpose/fast");
  EXPECT_EQ(s.plugins.back().plugin, "reduce/tree");
  const auto plugin = [&](const std::string& name) {
    return *std::find_if(s.plugins.begin(), s.plugins.end(),
                         [&](const PluginScaling& p) { return p.plugin == name; });
  };
  const PluginScaling fast = plugin("transpose/fast");
  EXPECT_EQ(fast.bound, "memory");
  EXPECT_EQ(fast.cases, 1u);  // its L2-bound case has no prediction and is left out
  EXPECT_NEAR(fast.measured, 1.2, 1e-6);
  EXPECT_NEAR(*fast.predicted, 1.4, 1e-12);
  EXPECT_NEAR(*fast.efficiency, 1.2 / 1.4, 1e-6);
  EXPECT_FALSE(fast.as_predicted());
  EXPECT_EQ(fast.largest.shape, "8192x8192");
  const PluginScaling sgemm = plugin("matmul/cublas");
  EXPECT_EQ(sgemm.bound, "fp32");
  EXPECT_NEAR(*sgemm.predicted, 1.0, 1e-12);
  EXPECT_TRUE(sgemm.as_predicted());
  EXPECT_TRUE(plugin("transpose/copy").as_predicted());
  const PluginScaling tree = plugin("reduce/tree");
  EXPECT_EQ(tree.bound, "L2");
  EXPECT_FALSE(tree.efficiency);
  EXPECT_NEAR(tree.measured, 0.8, 1e-6);
  EXPECT_FALSE(find_case(s, "transpose/fast", "float32", "1024x1024").predicted);
}

// Three generations and a device the peak table lacks, each with its own SM count and clock: the
// predicted speed-up of a compute-bound case is the ratio of the models' peaks at its precision,
// of a memory-bound one the ratio of their copy bandwidths; the unknown device gets no FLOP/s
// prediction, never zeros or another generation's figures.
TEST(Scaling, AcrossGenerationsEachModelsOwnPeaks) {
  const Card a100{"NVIDIA A100-SXM4-80GB", "GPU-a", 1700, "41943040", "8.0", "108", "1410"};
  const Card b200{"NVIDIA B200", "GPU-b", 6800, "134217728", "10.0", "148", "1980"};
  const Card rtx{"NVIDIA GeForce RTX 5090", "GPU-r", 1500, "100663296", "12.0", "170", "2407"};
  const Card gb10{"NVIDIA GB10", "GPU-g", 250, "25165824", "12.1", "48", "2500"};
  const CaseSpec bf16{"matmul/tensor", "bfloat16", "8192x8192x8192", 0, 402653184,
                      1099511627776, "bf16"};
  std::vector<ResultRecord> rows;
  for (const auto& [card, speed] : {std::pair{a100, 1.0}, {b200, 3.0}, {rtx, 4.0}, {gb10, 0.5}}) {
    rows.push_back(case_record(card, copy_8192(1000 / speed)));
    rows.push_back(case_record(card, sgemm(20000 / speed)));
    CaseSpec tensor = bf16;
    tensor.median_us = 5000 / speed;
    rows.push_back(case_record(card, tensor));
  }
  const auto models = gpu_models(rows);
  ASSERT_EQ(models.size(), 4u);
  EXPECT_EQ(models[0].name, "NVIDIA A100-SXM4-80GB");  // the oldest: the baseline
  EXPECT_FALSE(models[3].peaks_known());               // GB10, cc 12.1
  EXPECT_FALSE(models[3].peak_gflops("fp32"));
  const auto scalings = expected_scaling(rows, models);
  ASSERT_EQ(scalings.size(), 3u);
  const auto predicted = [&](std::size_t m, const std::string& plugin, const std::string& dtype,
                             const std::string& shape) {
    return find_case(scalings[m], plugin, dtype, shape).predicted;
  };
  // B200 over A100: FP32 148 x 1980 x 256 over 108 x 1410 x 128; BF16 x 8192 over x 2048.
  EXPECT_NEAR(*predicted(0, "matmul/cublas", "float32", "4096x4096x4096"),
              (148 * 1980.0 * 256) / (108 * 1410.0 * 128), 1e-9);
  EXPECT_NEAR(*predicted(0, "matmul/tensor", "bfloat16", "8192x8192x8192"),
              (148 * 1980.0 * 8192) / (108 * 1410.0 * 2048), 1e-9);
  EXPECT_NEAR(*predicted(0, "transpose/copy", "float32", "8192x8192"), 6800 / 1700.0, 1e-9);
  // RTX 5090 over A100: FP32 170 x 2407 x 256; BF16 at the professional part's full rate.
  EXPECT_NEAR(*predicted(1, "matmul/cublas", "float32", "4096x4096x4096"),
              (170 * 2407.0 * 256) / (108 * 1410.0 * 128), 1e-9);
  EXPECT_NEAR(*predicted(1, "matmul/tensor", "bfloat16", "8192x8192x8192"),
              (170 * 2407.0 * 1024) / (108 * 1410.0 * 2048), 1e-9);
  // GB10: its copy bandwidth predicts its memory-bound case, nothing its compute-bound ones.
  EXPECT_NEAR(*predicted(2, "transpose/copy", "float32", "8192x8192"), 250 / 1700.0, 1e-9);
  EXPECT_FALSE(predicted(2, "matmul/cublas", "float32", "4096x4096x4096"));
  EXPECT_FALSE(predicted(2, "matmul/tensor", "bfloat16", "8192x8192x8192"));
}

// Rows without an SM clock (NVML absent): the nominal clock of the table's part, said to be one.
TEST(Scaling, AModelWithoutAClockTakesTheNominalOneOfItsArchitecture) {
  Card b200{"NVIDIA B200", "GPU-b", 6800, "134217728", "10.0", "148", ""};
  Card gb10{"NVIDIA GB10", "GPU-g", 250, "25165824", "12.1", "48", ""};
  const std::vector<ResultRecord> rows = {case_record(b200, sgemm(300)),
                                          case_record(gb10, sgemm(9000))};
  const auto models = gpu_models(rows);
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(*models[0].clock_mhz, 1980);
  EXPECT_TRUE(models[0].nominal_clock);
  EXPECT_NEAR(*models[0].peak_gflops("fp32"), 148 * 1.980 * 256, 1e-6);
  EXPECT_FALSE(models[1].clock_mhz);  // no architecture in the table, no clock to assume
  EXPECT_FALSE(models[1].peak_gflops("fp32"));
}

TEST(Scaling, OneModelHasNothingToScaleAgainst) {
  const std::vector<ResultRecord> rows = {case_record(kH100a, copy_8192(180)),
                                          case_record(kH100b, copy_8192(181))};
  EXPECT_TRUE(expected_scaling(rows, gpu_models(rows)).empty());
}

TEST(Scaling, TheBoundOfACase) {
  EXPECT_EQ(case_bound(case_record(kH100a, copy_8192(180))), "memory");
  EXPECT_EQ(case_bound(case_record(kH100a, in_l2("reduce/tree", 20))), "L2");
  EXPECT_EQ(case_bound(case_record(kH100a, sgemm(2700))), "fp32");
  CaseSpec cold = copy_8192(180);
  cold.shape = "1024x1024";
  cold.bytes = 8388608;
  ResultRecord row = case_record(kH100a, cold);
  EXPECT_EQ(case_bound(row), "L2");
  row.cache = "cold";  // flushed before each sample: DRAM again
  EXPECT_EQ(case_bound(row), "memory");
}

TEST(Roofline, EachPluginsBestCaseUnderItsRoofs) {
  auto rows = two_models();
  rows.push_back(case_record(kH100a, {"matmul/cublas", "float32", "1024x1024x1024", 100,
                                      12582912, 2147483648, "fp32"}));  // 21475 GFLOP/s: not its best
  const auto models = gpu_models(rows);
  const Roofline roofline = build_roofline(rows, models);
  EXPECT_EQ(roofline.without_flops,
            (std::vector<std::string>{"transpose/copy", "transpose/fast"}));
  ASSERT_EQ(roofline.points.size(), 2u);  // cuBLAS on each model; the L2-bound reduce is none
  const RooflinePoint& h100 = roofline.points[0];
  EXPECT_EQ(h100.model, "NVIDIA H100");
  EXPECT_EQ(h100.shape, "4096x4096x4096");
  EXPECT_EQ(h100.bound, "fp32");
  EXPECT_NEAR(h100.intensity, 682.67, 0.01);
  EXPECT_NEAR(h100.gflops, 137438953472 / 2700e3, 1);
  EXPECT_NEAR(*h100.roof, 66908, 1);  // the FP32 peak is lower than copy x intensity
  ASSERT_EQ(roofline.models.size(), 2u);
  EXPECT_EQ(roofline.models[1].peaks.size(), 1u);
  EXPECT_EQ(roofline.models[1].peaks[0].first, "fp32");
  // A memory-bound case's roof is the slope: copy bandwidth x intensity.
  ResultRecord reduce = case_record(kH100a, {"reduce/tree", "float32", "268435456", 400,
                                             1073741828, 268435456, "copy", "sum"});
  EXPECT_NEAR(*attainable_gflops(reduce, models[0]), 3000 * 0.25, 0.01);
}

// On the committed results of the H100 and H200 cards (results/*.csv): the ratios the hardware
// predicts.
TEST(ScalingOnCommittedData, TwoModelsAndTheirRatiosAsTheHardwarePredicts) {
  namespace fs = boost::filesystem;
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(fs::path(KBENCH_SOURCE_DIR) / "results")) {
    if (entry.path().extension() == ".csv") files.push_back(entry.path().string());
  }
  const auto rows = read_selected_rows(files);
  const auto models = gpu_models(rows);
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].label, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(models[1].label, "NVIDIA H200");
  EXPECT_GE(models[0].cards.size(), 1u);
  EXPECT_GE(models[1].cards.size(), 1u);
  const auto scalings = expected_scaling(rows, models);
  ASSERT_EQ(scalings.size(), 1u);
  // transpose/copy at 8192^2: within 3% of the ratio of the models' copy bandwidths.
  for (const char* dtype : {"float32", "float64"}) {
    const CaseScaling& copy = find_case(scalings[0], "transpose/copy", dtype, "8192x8192");
    EXPECT_EQ(copy.bound, "memory");
    EXPECT_NEAR(*copy.predicted, *models[1].copy_gbps / *models[0].copy_gbps, 1e-12);
    EXPECT_NEAR(*copy.efficiency, 1.0, 0.03) << dtype;
  }
  // cuBLAS SGEMM is compute-bound, and both models have 132 SMs at 1980 MHz: 1.0 predicted.
  const CaseScaling& sgemm = find_case(scalings[0], "matmul/cublas", "float32", "4096x4096x4096");
  EXPECT_EQ(sgemm.bound, "fp32");
  EXPECT_DOUBLE_EQ(*sgemm.predicted, 1.0);
  EXPECT_NEAR(sgemm.measured, 1.0, 0.03);
}

}  // namespace
}  // namespace kb
