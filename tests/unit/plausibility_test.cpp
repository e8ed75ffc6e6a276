// Each rule a row's timings are checked against, on synthetic figures: what makes a case
// `implausible`, what only adds a note, and what passes.
#include "device/peak_rates.hpp"
#include "judge/plausibility.hpp"

#include <gtest/gtest.h>

namespace {

using kb::CaseLimits;
using kb::CaseTimings;
using kb::check_plausibility;

// An H100-like device: 3352 GB/s memory, 50 MiB L2, 33.5 TB/s load/store.
CaseLimits h100_limits(double bytes, double flops = 0) {
  CaseLimits limits;
  limits.bytes = bytes;
  limits.flops = flops;
  limits.dram_gbps = 3352;
  limits.l2_bytes = 50 << 20;
  limits.l2_gbps = 33454;  // unmeasured: the SMs' load/store rate
  return limits;
}

// A case whose median moves `bytes` at `gbps`, the other timings agreeing with it.
CaseTimings agreeing_timings(double bytes, double gbps) {
  CaseTimings t;
  t.median_us = bytes / gbps / 1e3;
  t.batch_us = t.median_us * 1.005;
  t.enqueue_us = 3;
  t.host_us = t.median_us + 12;
  t.kernels = 1;
  t.captured_operations = 1;
  return t;
}

TEST(Plausibility, AnHonestMemoryBoundCasePassesWithoutNotes) {
  const double bytes = 1 << 30;
  const auto verdict = check_plausibility(agreeing_timings(bytes, 3000), h100_limits(bytes));
  EXPECT_EQ(verdict.implausible, "");
  EXPECT_TRUE(verdict.notes.empty()) << verdict.notes.front();
}

TEST(Plausibility, ALaunchThatPutNothingOnItsStreamIsImplausible) {
  auto t = agreeing_timings(1 << 20, 500);
  t.captured_operations = 0;
  EXPECT_NE(check_plausibility(t, h100_limits(1 << 20)).implausible.find("stream check"),
            std::string::npos);
  t.captured_operations.reset();  // not checked (the plugin could not be captured): no verdict
  EXPECT_EQ(check_plausibility(t, h100_limits(1 << 20)).implausible, "");
}

TEST(Plausibility, GpuTimeFarBelowTheSynchronisedHostTimeIsImplausible) {
  auto t = agreeing_timings(1 << 20, 500);
  t.median_us = 2;
  t.host_us = 3000;  // the kernel ran, elsewhere
  auto verdict = check_plausibility(t, h100_limits(1 << 20));
  EXPECT_NE(verdict.implausible.find("host-time check"), std::string::npos) << verdict.implausible;

  t.host_us = 300;  // host work at the synchronise (device printf), or a shared GPU: a note
  verdict = check_plausibility(t, h100_limits(1 << 20));
  EXPECT_EQ(verdict.implausible, "");
  ASSERT_EQ(verdict.notes.size(), 1u);
  EXPECT_NE(verdict.notes[0].find("more than twice the GPU time"), std::string::npos);

  t.host_us = 3000, t.host_idle_us = 2950;  // a busy host: the empty launch took as long
  verdict = check_plausibility(t, h100_limits(1 << 20));
  EXPECT_EQ(verdict.implausible, "");
  EXPECT_TRUE(verdict.notes.empty());

  t.host_idle_us = NAN;
  t.host_us = 90;  // a short kernel and a slow synchronise: launch overhead explains it
  verdict = check_plausibility(t, h100_limits(1 << 20));
  EXPECT_EQ(verdict.implausible, "");
  EXPECT_TRUE(verdict.notes.empty());
}

TEST(Plausibility, BandwidthAboveTheMemoryIsImplausibleOnceTheDataCannotSitInL2) {
  const double bytes = 1 << 30;
  const auto verdict = check_plausibility(agreeing_timings(bytes, 1.2 * 3352), h100_limits(bytes));
  EXPECT_NE(verdict.implausible.find("bandwidth check"), std::string::npos);
  EXPECT_NE(verdict.implausible.find("memory bandwidth (3352 GB/s, theoretical)"), std::string::npos)
      << verdict.implausible;
  EXPECT_EQ(check_plausibility(agreeing_timings(bytes, 1.05 * 3352), h100_limits(bytes)).implausible,
            "");
  // 8 MiB in a hot cache may beat the memory; flushed before every sample it may not.
  const double small = 8 << 20;
  EXPECT_EQ(check_plausibility(agreeing_timings(small, 2 * 3352), h100_limits(small)).implausible,
            "");
  auto cold = h100_limits(small);
  cold.cold = true;
  EXPECT_NE(check_plausibility(agreeing_timings(small, 2 * 3352), cold).implausible, "");
}

// Measured roofs: what the device's copy or read and its L2 deliver, with the slack their noise
// needs, not the theory plus a tenth.
CaseLimits measured_h100(double bytes) {
  CaseLimits limits = h100_limits(bytes);
  limits.dram_gbps = 3000, limits.dram_measured = true;
  limits.l2_gbps = 7000, limits.l2_measured = true;
  return limits;
}

TEST(Plausibility, MeasuredRoofsHoldDramAndL2CasesToWhatTheDeviceDelivers) {
  const double large = 1 << 30;
  EXPECT_EQ(check_plausibility(agreeing_timings(large, 1.05 * 3000), measured_h100(large))
                .implausible,
            "");
  // 1.2 of the measured copy is under the theory plus a tenth, yet no device delivers it, even
  // with 50 MiB of the gigabyte still in L2 from the launch before.
  auto verdict = check_plausibility(agreeing_timings(large, 1.2 * 3000), measured_h100(large));
  EXPECT_NE(verdict.implausible.find("(3000 GB/s, measured)"), std::string::npos)
      << verdict.implausible;
  // A hot 32 MiB working set reads from L2: held to the L2's measured rate.
  const double resident = 32 << 20;
  EXPECT_EQ(check_plausibility(agreeing_timings(resident, 7000), measured_h100(resident)).implausible,
            "");
  verdict = check_plausibility(agreeing_timings(resident, 1.3 * 7000), measured_h100(resident));
  EXPECT_NE(verdict.implausible.find("L2's bandwidth"), std::string::npos) << verdict.implausible;
  // 64 MiB against a 50 MiB L2: at least 14 MiB come from DRAM, and all of it through the L2.
  const double spilling = 64 << 20;
  EXPECT_NE(check_plausibility(agreeing_timings(spilling, 10000), measured_h100(spilling))
                .implausible,
            "");
}

TEST(Plausibility, ALaunchThatWorksOnlyOnPoisonedOutputsIsImplausible) {
  auto t = agreeing_timings(1 << 20, 500);
  t.median_us = 2.2, t.batch_us = 2.2, t.host_us = 15;
  t.single_us = 2.5, t.poisoned_us = 180;  // the answer was there: the launch skipped the work
  auto verdict = check_plausibility(t, h100_limits(1 << 20));
  EXPECT_NE(verdict.implausible.find("poisoned-output check"), std::string::npos)
      << verdict.implausible;
  t.single_us = 180, t.poisoned_us = 186;  // a poisoned output's pages and cache lines: no verdict
  EXPECT_EQ(check_plausibility(t, h100_limits(1 << 20)).implausible, "");
  t.single_us = 2.5, t.poisoned_us = 7;  // a tiny kernel's start: within the slack
  EXPECT_EQ(check_plausibility(t, h100_limits(1 << 20)).implausible, "");
  // A launch that synchronises swings: the plain sample's minimum alone would cry wolf.
  t.median_us = 44.7, t.single_us = 37.9, t.poisoned_us = 65, t.host_us = 60;
  EXPECT_EQ(check_plausibility(t, h100_limits(1 << 20)).implausible, "");
}

TEST(Plausibility, ALaunchTimedPlainPaysItsHostsWakeUpAfterThePoisonAndNoMore) {
  // reduce/multi_block int32 sum of 1 element on an H200: a kernel, a copy back, a wait and a
  // copy from pageable memory, right after the referee's poison.
  auto t = agreeing_timings(4, 21);
  t.held = false, t.batch_us = NAN, t.host_us = 40;  // no batch: it synchronises
  t.median_us = 20.99, t.single_us = 18.72, t.poisoned_us = 41.98;
  EXPECT_NE(check_plausibility(t, h100_limits(4)).implausible.find("poisoned-output check"),
            std::string::npos);
  t.plain = true;
  EXPECT_EQ(check_plausibility(t, h100_limits(4)).implausible, "");
  // Beyond the launch once more and 20 us, a plain launch too did less on the answer.
  t.poisoned_us = 2.5 * 20.99 + 25 + 1;
  EXPECT_NE(check_plausibility(t, h100_limits(4)).implausible.find("poisoned-output check"),
            std::string::npos);
}

TEST(Plausibility, NoBandwidthBeatsTheSmsLoadStoreRate) {
  const double small = 8 << 20;
  const auto verdict = check_plausibility(agreeing_timings(small, 1.3 * 33454), h100_limits(small));
  EXPECT_NE(verdict.implausible.find("load and store"), std::string::npos) << verdict.implausible;
}

TEST(Plausibility, FlopsAboveTheDeclaredMathsPeakIsImplausible) {
  const double bytes = 3 * 4096.0 * 4096 * 4, flops = 2 * 4096.0 * 4096 * 4096;
  auto limits = h100_limits(bytes, flops);
  const auto timings = [&](double gflops) {
    auto t = agreeing_timings(bytes, 1);
    t.median_us = flops / gflops / 1e3;
    t.batch_us = t.median_us;
    t.host_us = t.median_us + 10;
    return t;
  };
  // Undeclared math: a tensor-core rate is never called impossible on FLOP/s alone.
  EXPECT_EQ(check_plausibility(timings(600000), limits).implausible, "");
  limits.math_peak_gflops = 535265;
  limits.math = "tf32";
  EXPECT_EQ(check_plausibility(timings(480000), limits).implausible, "");
  const auto verdict = check_plausibility(timings(700000), limits);
  EXPECT_NE(verdict.implausible.find("FLOP/s check"), std::string::npos);
  EXPECT_NE(verdict.implausible.find("tf32"), std::string::npos);
}

TEST(Plausibility, HeldMedianAndBackToBackTimeMustAgreeBeyondLaunchOverhead) {
  auto t = agreeing_timings(1 << 28, 3000);  // about 89 us
  t.batch_us = 0.9 * t.median_us;            // the samples hold more than the kernel
  auto verdict = check_plausibility(t, h100_limits(1 << 28));
  EXPECT_EQ(verdict.implausible, "");
  ASSERT_EQ(verdict.notes.size(), 1u);
  EXPECT_NE(verdict.notes[0].find("less than the median"), std::string::npos);

  t.batch_us = 1.1 * t.median_us;  // slower back to back than the kernel and its gap explain
  verdict = check_plausibility(t, h100_limits(1 << 28));
  ASSERT_EQ(verdict.notes.size(), 1u);
  EXPECT_NE(verdict.notes[0].find("launch overhead"), std::string::npos);

  t.enqueue_us = t.batch_us;  // ...unless the host could not enqueue faster: launch-bound
  EXPECT_TRUE(check_plausibility(t, h100_limits(1 << 28)).notes.empty());

  t = agreeing_timings(1 << 16, 100);  // 0.66 us: one kernel's gap back to back is expected
  t.batch_us = t.median_us + 1;
  EXPECT_TRUE(check_plausibility(t, h100_limits(1 << 16)).notes.empty());
}

TEST(Plausibility, AHostTimeBelowTheGpuTimeIsNoted) {
  auto t = agreeing_timings(1 << 28, 3000);
  t.host_us = 0.5 * t.median_us;  // the samples held more than the launch: noted, not judged
  const auto verdict = check_plausibility(t, h100_limits(1 << 28));
  EXPECT_EQ(verdict.implausible, "");
  ASSERT_EQ(verdict.notes.size(), 1u);
  EXPECT_NE(verdict.notes[0].find("less than the GPU median"), std::string::npos);
}

// Samples of several launches against a launch alone: what the device gains back to back is
// allowed, more is work the launches no check saw did not do.
TEST(Plausibility, SamplesOfSeveralLaunchesFasterThanALaunchAloneAreImplausible) {
  auto t = agreeing_timings(1 << 24, 3000);
  t.sample_launches = 20;
  t.single_us = t.median_us + 2.0;  // a launch alone pays the GPU's start of it
  t.launch_gain_us = 1.8;
  EXPECT_EQ(check_plausibility(t, h100_limits(1 << 24)).implausible, "");
  // The work done in the first launch of each sample only: a fifth of a launch alone.
  t.single_us = 5 * t.median_us;
  auto verdict = check_plausibility(t, h100_limits(1 << 24));
  EXPECT_NE(verdict.implausible.find("launch accounting: 20 launches back to back"),
            std::string::npos)
      << verdict.implausible;
  // Samples of one launch, or not held: nothing to account for.
  t.sample_launches = 1;
  EXPECT_EQ(check_plausibility(t, h100_limits(1 << 24)).implausible, "");
  t.sample_launches = 20;
  t.held = false;
  EXPECT_EQ(check_plausibility(t, h100_limits(1 << 24)).implausible, "");
}

// CUPTI's kernels on one stream longer than the events by more than the clocks' own disagreement
// (honest rows reach 1.10): the events' clock is the one that lies.
TEST(Plausibility, KernelsLongerThanTheEventsByMoreThanTheirNoiseAreImplausible) {
  auto t = agreeing_timings(1 << 28, 3000);
  t.cupti_operations = 1, t.cupti_other_operations = 0;
  t.cupti_us = t.cupti_busiest_us = 1.10 * t.median_us;  // cuBLAS's TF32 GEMM on an H200
  EXPECT_EQ(check_plausibility(t, h100_limits(1 << 28)).implausible, "");
  t.cupti_us = t.cupti_busiest_us = t.median_us / 0.8;  // every sample scaled by 0.8
  EXPECT_NE(check_plausibility(t, h100_limits(1 << 28)).implausible.find("CUPTI check"),
            std::string::npos);
}

// A kernel whose time has a long tail: the traced launches are a few of its times, and may be
// slower than the median by as much as the samples' own spread allows for their number.
TEST(Plausibility, TracedLaunchesFromAKernelsLongTailAreNoFinding) {
  // hello/printf at 1024 blocks of 64 on an H100: samples from 19 to 28 ms.
  CaseTimings t = agreeing_timings(1 << 20, 3000);
  t.median_us = 21094.8, t.stddev_us = 1796.24;
  t.batch_us = 23246.3, t.host_us = 46094.6;
  t.cupti_operations = 1, t.cupti_other_operations = 0;
  t.cupti_us = t.cupti_busiest_us = 27664.6;  // one traced launch, 1.31 times the median
  t.cupti_launches = 1;
  EXPECT_EQ(check_plausibility(t, h100_limits(1 << 20)).implausible, "");
  // Four traced launches, all as slow: more than their mean may be.
  t.cupti_launches = 4;
  EXPECT_NE(check_plausibility(t, h100_limits(1 << 20)).implausible.find("CUPTI check"),
            std::string::npos);
  // A clock made slow keeps the samples as tight as the kernel's own: the spread excuses nothing.
  t.stddev_us = 0.005 * t.median_us;
  t.cupti_us = t.cupti_busiest_us = t.median_us / 0.8;
  t.cupti_launches = 1;
  EXPECT_NE(check_plausibility(t, h100_limits(1 << 20)).implausible.find("CUPTI check"),
            std::string::npos);
}

// --- The fourth clock: CUPTI's kernels against the events ------------------------------------

// What CUPTI traces of an honest single-kernel launch on its own stream.
CaseTimings traced(CaseTimings t) {
  t.cupti_us = t.median_us * 0.995;
  t.cupti_busiest_us = t.cupti_us;
  t.cupti_operations = 1;
  t.cupti_other_operations = 0;
  return t;
}

TEST(Plausibility, KernelsCuptiSawAgreeingWithTheMedianPassWithoutNotes) {
  const double bytes = 1 << 30;
  const auto verdict = check_plausibility(traced(agreeing_timings(bytes, 3000)), h100_limits(bytes));
  EXPECT_EQ(verdict.implausible, "");
  EXPECT_TRUE(verdict.notes.empty()) << verdict.notes.front();
}

TEST(Plausibility, KernelsOnAnotherStreamAloneAreImplausibleWithoutTheCapture) {
  auto t = traced(agreeing_timings(1 << 26, 3000));
  t.captured_operations.reset();  // no stream capture: CUPTI alone
  t.median_us = 2;                // the events timed nothing
  t.batch_us = 2.5;
  t.cupti_other_operations = 1;   // its one kernel ran on the plugin's own stream
  auto verdict = check_plausibility(t, h100_limits(1 << 26));
  EXPECT_NE(verdict.implausible.find("CUPTI stream check"), std::string::npos) << verdict.implausible;
  EXPECT_NE(verdict.implausible.find("stream other than the one given"), std::string::npos);
  // The capture catches it too: both are said.
  t.captured_operations = 0;
  verdict = check_plausibility(t, h100_limits(1 << 26));
  EXPECT_EQ(verdict.implausible.rfind("stream check", 0), 0u) << verdict.implausible;
  EXPECT_NE(verdict.implausible.find("; CUPTI stream check"), std::string::npos);
  // A launch that ran nothing on the device at all.
  t.captured_operations.reset();
  t.cupti_operations = t.cupti_other_operations = 0;
  t.cupti_us = t.cupti_busiest_us = 0;
  verdict = check_plausibility(t, h100_limits(1 << 26));
  EXPECT_NE(verdict.implausible.find("ran no kernel"), std::string::npos) << verdict.implausible;
}

TEST(Plausibility, AStreamOfKernelsLongerThanTheEventsIsImplausible) {
  // A token kernel on the given stream, the real work on a private one the launch never waits for.
  auto t = traced(agreeing_timings(1 << 26, 3000));
  t.median_us = 3;
  t.batch_us = 3.5;
  t.cupti_operations = 2;
  t.cupti_other_operations = 1;
  t.cupti_us = 25;
  t.cupti_busiest_us = 22;
  auto verdict = check_plausibility(t, h100_limits(1 << 26));
  EXPECT_NE(verdict.implausible.find("CUPTI check: one stream ran 22 us"), std::string::npos)
      << verdict.implausible;
  // The same work joined back to the given stream: the events wait for it, the median holds it;
  // two streams side by side sum to more than the median, and that is only noted.
  t.median_us = 23;
  t.batch_us = 23.5;
  t.cupti_us = 40;
  verdict = check_plausibility(t, h100_limits(1 << 26));
  EXPECT_EQ(verdict.implausible, "");
  ASSERT_EQ(verdict.notes.size(), 2u);
  EXPECT_NE(verdict.notes[0].find("1 of the 2 kernels"), std::string::npos) << verdict.notes[0];
  EXPECT_NE(verdict.notes[1].find("more than the median"), std::string::npos) << verdict.notes[1];
}

TEST(Plausibility, KernelsFarShorterThanAHeldMedianAreNoted) {
  auto t = traced(agreeing_timings(1 << 28, 3000));  // about 90 us
  t.cupti_us = t.cupti_busiest_us = 0.8 * t.median_us;
  auto verdict = check_plausibility(t, h100_limits(1 << 28));
  EXPECT_EQ(verdict.implausible, "");
  ASSERT_EQ(verdict.notes.size(), 1u);
  EXPECT_NE(verdict.notes[0].find("less than the median"), std::string::npos) << verdict.notes[0];
  // Within a kernel's launch gap and 10% (the batch's spread beside the samples): agreement.
  t.cupti_us = t.cupti_busiest_us = 0.92 * t.median_us - 1.0;
  EXPECT_TRUE(check_plausibility(t, h100_limits(1 << 28)).notes.empty());
  // A median that holds the launch latency (timed plain) is not the kernels' time: no note.
  t.cupti_us = t.cupti_busiest_us = 0.5 * t.median_us;
  t.held = false;
  t.batch_us = NAN;
  EXPECT_TRUE(check_plausibility(t, h100_limits(1 << 28)).notes.empty());
}

TEST(Plausibility, WithoutTheFourthClockNothingIsJudgedByIt) {
  auto t = agreeing_timings(1 << 20, 500);  // cupti figures NaN: not traced (no CUPTI)
  const auto verdict = check_plausibility(t, h100_limits(1 << 20));
  EXPECT_EQ(verdict.implausible, "");
  EXPECT_TRUE(verdict.notes.empty());
}

TEST(PeakRates, HopperFromItsSmCountAndClock) {
  const kb::PeakRates h100 = kb::peak_rates(9, 0, 132, 1980);
  EXPECT_NEAR(h100.fp32, 66908, 1);
  EXPECT_NEAR(h100.fp64, 33454, 1);
  EXPECT_NEAR(h100.tf32, 535265, 1);
  EXPECT_NEAR(h100.bf16, 1070530, 1);
  EXPECT_EQ(h100.fp16, h100.bf16);
  EXPECT_NEAR(h100.load_store_gbps, 33454, 1);
  EXPECT_EQ(h100.of(kb::Math::tf32), h100.tf32);
  EXPECT_EQ(h100.of(kb::Math::unknown), 0);
  const kb::PeakRates unknown = kb::peak_rates(42, 0, 100, 1000);
  EXPECT_FALSE(unknown.known);
  EXPECT_EQ(unknown.fp32, 0);
  EXPECT_EQ(unknown.tf32, 0);
}

}  // namespace
