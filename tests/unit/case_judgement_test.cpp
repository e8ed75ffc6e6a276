// A case's judgement, one pure function of the planned case, the outcome and the device: an `ok`
// no device could produce is `implausible` with the worker's words kept after the judge's, a
// case that failed is never judged further, and a host plugin gets its rates but no roof.
#include "judge/case_judgement.hpp"

#include "device/peak_rates.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace kb {
namespace {

// A copy of 1 GiB each way in `median_us`.
struct CopyCase {
  PlannedCase planned;
  CaseOutcome outcome;
  CopyCase(kb_device_kind where, double median_us, CaseStatus status) {
    auto plugin = std::make_shared<PluginInfo>();
    plugin->name = "transpose/copy";
    plugin->family = "transpose";
    plugin->device = where;
    planned.plugin = plugin;
    planned.request.dtype = KB_DTYPE_F32;
    planned.request.device = where == KB_DEVICE_CUDA ? 0 : -1;
    outcome.status = status;
    outcome.message = "the worker's words";
    outcome.samples = SampleSummary{20, median_us, median_us, median_us, 0, 0.001, true};
    outcome.timing = TimingMethod::held;
    outcome.bytes = 2.0 * (1 << 30);
    outcome.flops = 0;
  }
};

DeviceInfo h100() {
  DeviceInfo d;
  d.name = "GPU";
  d.cc_major = 9, d.cc_minor = 0;
  d.sm_count = 132;
  d.l2_bytes = 50 << 20;
  d.theoretical_gbps = 3350;
  d.peaks = peak_rates(9, 0, 132, 1980);
  return d;
}

MeasuredBandwidth copy_of(double gbps) {
  MeasuredBandwidth measured;
  measured.copy_gbps = gbps;
  return measured;
}

TEST(CaseJudgement, AnOkNoDeviceCouldProduceIsImplausibleTheWorkersWordsAfterTheJudges) {
  const DeviceInfo device = h100();
  // 2 GiB in 200 us: 10,700 GB/s, three times the copy's 3,000.
  const CopyCase fast(KB_DEVICE_CUDA, 200, CaseStatus::ok);
  const Judgement judged = judge_case(fast.planned, &device, copy_of(3000), fast.outcome, false);
  EXPECT_EQ(judged.status, CaseStatus::implausible);
  EXPECT_NE(judged.message.find("; the worker's words"), std::string::npos) << judged.message;
  EXPECT_NE(judged.message.rfind("the worker's words"), 0u) << judged.message;
  EXPECT_EQ(judged.peak, "copy");
  ASSERT_TRUE(judged.fraction_of_peak);
  EXPECT_NEAR(*judged.fraction_of_peak, 10737.4 / 3000, 1e-3);

  // The same at 1 ms (2,150 GB/s) is a plausible copy.
  const CopyCase honest(KB_DEVICE_CUDA, 1000, CaseStatus::ok);
  const Judgement fine = judge_case(honest.planned, &device, copy_of(3000), honest.outcome, false);
  EXPECT_EQ(fine.status, CaseStatus::ok);
  EXPECT_EQ(fine.message, "the worker's words");
}

TEST(CaseJudgement, ACaseThatFailedKeepsItsStatusAndWords) {
  const DeviceInfo device = h100();
  const CopyCase failed(KB_DEVICE_CUDA, 200, CaseStatus::verify_failed);
  const Judgement judged = judge_case(failed.planned, &device, copy_of(3000), failed.outcome, false);
  EXPECT_EQ(judged.status, CaseStatus::verify_failed);
  EXPECT_EQ(judged.message, "the worker's words");
  EXPECT_TRUE(judged.gbps);  // its rate still stands
}

TEST(CaseJudgement, AHostPluginGetsItsRatesAndNoRoof) {
  const CopyCase host(KB_DEVICE_HOST, 1e6, CaseStatus::ok);
  const Judgement judged = judge_case(host.planned, nullptr, MeasuredBandwidth{}, host.outcome, false);
  EXPECT_EQ(judged.status, CaseStatus::ok);
  ASSERT_TRUE(judged.gbps);
  EXPECT_NEAR(*judged.gbps, 2.147, 1e-3);
  EXPECT_FALSE(judged.gflops);  // no flops counted
  EXPECT_EQ(judged.peak, "");
  EXPECT_FALSE(judged.fraction_of_peak);
}

}  // namespace
}  // namespace kb
