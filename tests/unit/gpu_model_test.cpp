// GPU models: the cards of one name and compute capability pooled, oldest model first.
#include "analysis/gpu_model.hpp"

#include <gtest/gtest.h>

namespace kb {
namespace {

// A card's row as a results file holds it, read back.
ResultRecord card_row(const std::string& name, const std::string& cc, const std::string& uuid,
                      const std::string& copy_gbps, const std::string& timestamp = "2026-01-01",
                      const std::string& clock = "1980") {
  ResultCells row;
  row.timestamp_utc = timestamp;
  row.run_id = "run-" + uuid;
  row.gpu_name = name;
  row.gpu_uuid = uuid;
  row.compute_capability = cc;
  row.sm_count = "132";
  row.copy_gbps = copy_gbps;
  row.sm_clock_mhz = clock;
  return record_of(row);
}

TEST(GpuModel, CardsOfOneModelPoolTheirLatestCopyBandwidth) {
  const std::vector<ResultRecord> rows = {
      card_row("NVIDIA H200", "9.0", "GPU-a", "4100"),
      card_row("NVIDIA H200", "9.0", "GPU-b", "4000", "2026-01-01"),
      card_row("NVIDIA H200", "9.0", "GPU-b", "4140", "2026-01-02"),
      card_row("NVIDIA H200", "9.0", "GPU-c", "4120"),
      card_row("NVIDIA H100 80GB HBM3", "9.0", "GPU-d", "2950")};
  const auto models = gpu_models(rows);
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].label, "NVIDIA H100 80GB HBM3");  // the older (first) model is the baseline
  const GpuModel& h200 = models[1];
  EXPECT_EQ(h200.cards.size(), 3u);
  EXPECT_DOUBLE_EQ(*h200.copy_gbps, 4120);  // the median of 4100, 4140 (GPU-b's latest), 4120
  EXPECT_DOUBLE_EQ(h200.copy_min, 4100);
  EXPECT_DOUBLE_EQ(h200.copy_max, 4140);
  EXPECT_EQ(h200.rows, 4u);
  EXPECT_NEAR(*h200.peak_gflops("fp32"), 66908, 1);
  EXPECT_NEAR(*h200.peak_gflops("bf16"), 1070530, 1);
  EXPECT_FALSE(h200.peak_gflops("copy"));
}

TEST(GpuModel, AModelIsANameAndAComputeCapability) {
  const std::vector<ResultRecord> rows = {card_row("GPU X", "8.0", "GPU-1", "1"),
                                          card_row("GPU X", "9.0", "GPU-2", "1"),
                                          card_row("GPU Y", "9.0", "GPU-3", "1"),
                                          card_row("GPU Y", "9.0", "GPU-4", "1")};
  EXPECT_EQ(gpu_labels(rows, GpuGrouping::model),
            (std::vector<Text>{"GPU X (cc 8.0)", "GPU X (cc 9.0)", "GPU Y", "GPU Y"}));
  EXPECT_EQ(gpu_labels(rows, GpuGrouping::device),
            (std::vector<Text>{"GPU X GPU-1", "GPU X GPU-2", "GPU Y GPU-3", "GPU Y GPU-4"}));
  const auto models = gpu_models(rows);
  ASSERT_EQ(models.size(), 3u);
  EXPECT_EQ(models[0].label, "GPU X (cc 8.0)");  // older compute capability first
}

TEST(GpuModel, WithoutAMeasuredClockThePeakUsesTheNominalOne) {
  const std::vector<ResultRecord> rows = {card_row("NVIDIA H100", "9.0", "GPU-1", "2950", "t", "")};
  const auto models = gpu_models(rows);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_TRUE(models[0].nominal_clock);
  EXPECT_DOUBLE_EQ(*models[0].clock_mhz, 1980);
}

}  // namespace
}  // namespace kb
