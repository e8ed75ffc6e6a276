#include "judge/plausibility.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kb {
namespace {

// A rate may exceed its nominal ceiling by this much before it is called impossible: the event
// timer's resolution and clock reporting leave a few percent of slack, never a factor.
constexpr double kRateSlack = 1.10;
// Over a measured roof, the slack its own noise needs: a kernel may beat the runner's copy and
// read by a few percent (reduce/fast reads 1.05 of the copy on an H100), not by a tenth.
constexpr double kMeasuredSlack = 1.08;
// The L2 roof is measured by reads alone: writes and a better access pattern may beat it by more.
constexpr double kL2MeasuredSlack = 1.25;
// A launch right after its outputs were poisoned may take this much longer than one on outputs
// already written (a few microseconds of page and cache state), and no more: a strategy that does
// less when its output already holds the answer shows as a larger gap.
constexpr double kPoisonedRatio = 1.5;
constexpr double kPoisonedSlackUs = 5.0;
// A launch timed plain also holds its host's wake-up after the referee's round trip, as a host
// launch does (case_timer.cpp): the launch itself once more and 20 us. reduce/multi_block, which
// synchronises in launch, took 37.8-42 us right after a poison against 15-21 us on an H200.
constexpr double kPlainPoisonedRatio = 1.0;
constexpr double kPlainPoisonedSlackUs = 20.0;
// A synchronised launch costs the host this much beyond the kernel and beyond an empty launch's
// round trip (a library's host work, a few launches). A host time more than twice the GPU time
// and that is noted; more than ten times is work the events cannot have seen. (Not less: the host
// time also holds host work at the synchronise, as device printf's, and other processes sharing
// the GPU; a busy host slows the empty launch's round trip as much, which is why it is taken off.)
constexpr double kHostOverheadUs = 50.0;
constexpr double kHostNoted = 2.0;
constexpr double kHostImpossible = 10.0;
// Back to back, the gap between two kernels of one stream; and the agreement asked of the
// held median and the back-to-back time beyond it (with the event timer's resolution).
constexpr double kGapPerKernelUs = 1.0;
constexpr double kAgreement = 0.03;
constexpr double kTimerResolutionUs = 0.5;
// The fourth clock. One stream runs its kernels one after the other, so the events around a launch
// that waits for its work (joined back to the given stream) last at least as long as the busiest
// stream's kernels: over 1.15 times the median and 1 us, the events missed work or their clock ran
// slow. (Not the sum over the streams: a launch may run streams side by side.) Honest rows of the
// committed H100 and H200 sweeps reach 1.10 (cuBLAS's TF32 GEMM at 8192^3; single transposes 1.06).
constexpr double kCuptiImpossible = 1.15;
// Each clock has its own noise: the traced launches are a few of the kernel's times, whose spread
// the samples show, so their mean may lie this many standard errors above the median as well
// (hello/printf at 1024 blocks of 64 on an H100: samples from 19 to 28 ms, one traced launch at
// 1.31 times the median). A clock made slow keeps its samples as tight as the kernel's own.
constexpr double kCuptiStandardErrors = 3;
// Before Blackwell, CUPTI times a kernel by instrumenting it, and the instrumented kernel runs
// differently: on an H100, honest single-kernel rows of the default sweep came within -7% and +5%
// of the held median, and tracing the samples themselves moved their medians as much (2026-11-25,
// results/notes/cupti.md). A note needs more than that.
constexpr double kCuptiAgreement = 0.10;
// CUPTI counts the kernels' own time; the events also hold the GPU's gap before each kernel of a
// launch that waits for the one before: 3.4 us before the second of reduce/cub's two kernels at
// 2^24 on an H200.
constexpr double kDependentKernelGapUs = 4.0;
constexpr double kCuptiSlackUs = 1.0;
// Samples of several launches against one-launch samples: beyond the device's own back-to-back
// gain (the launch latency a kernel's predecessor hides), a launch may be faster by this much of
// a launch alone, and a timer's tick; more, and the launches no check saw did less. The gain where
// it was not measured: Hopper's, a few microseconds.
constexpr double kLaunchAccountingSlack = 0.05;
constexpr double kLaunchAccountingSlackUs = 1.0;
constexpr double kDefaultLaunchGainUs = 3.0;

std::string format(const char* pattern, double a, double b = 0, double c = 0) {
  char text[256];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

}  // namespace

PlausibilityVerdict check_plausibility(const CaseTimings& t, const CaseLimits& limits) {
  PlausibilityVerdict verdict;
  const auto fail = [&](std::string why) {
    if (verdict.implausible.empty()) verdict.implausible = std::move(why);
  };
  // The fourth clock's failures are told beside another check's: each catches the cheat alone.
  const auto fail_too = [&](const std::string& why) {
    verdict.implausible += (verdict.implausible.empty() ? "" : "; ") + why;
  };

  if (t.captured_operations && *t.captured_operations == 0) {
    fail("stream check: a captured launch put no work on the stream it was given, so the events "
         "timed nothing (work on another stream?)");
  }
  // What the host time holds beyond the host's own cost of a synchronised launch right then.
  const double unexplained_us = t.host_us - (std::isnan(t.host_idle_us) ? 0.0 : t.host_idle_us);
  if (unexplained_us > kHostImpossible * (t.median_us + kHostOverheadUs)) {
    fail(format("host-time check: the GPU time %.4g us explains less than a tenth of the %.4g us "
                "a synchronised launch took on the host (work outside the given stream?)",
                t.median_us, t.host_us));
  } else if (unexplained_us > kHostNoted * (t.median_us + kHostOverheadUs)) {
    verdict.notes.push_back(format(
        "self-check: a synchronised launch took %.4g us on the host, more than twice the GPU "
        "time %.4g us and launch overhead (host work at the synchronise, or work elsewhere)",
        t.host_us, t.median_us));
  }
  // Against the slower of the plain one-launch sample and the median, so that a launch whose
  // own timing swings (one that synchronises, a host loop) is not called a cheat for its noise.
  const double unpoisoned = std::max(t.single_us, std::isnan(t.median_us) ? 0.0 : t.median_us);
  const double poisoned_limit_us =
      kPoisonedRatio * unpoisoned + kPoisonedSlackUs +
      (t.plain ? kPlainPoisonedRatio * unpoisoned + kPlainPoisonedSlackUs : 0.0);
  if (t.poisoned_us > poisoned_limit_us) {
    fail(format("poisoned-output check: a launch right after its outputs were poisoned took "
                "%.4g us, one on outputs already written %.4g us: the launch does less when its "
                "output already holds the answer",
                t.poisoned_us, t.single_us));
  }
  if (t.median_us > 0) {
    const double seconds = t.median_us * 1e-6;
    const double gbps = limits.bytes / seconds / 1e9;
    // The bytes that cannot be in L2 come from DRAM; all of them pass through the L2.
    const double resident = limits.cold ? 0.0 : std::min(limits.bytes, limits.l2_bytes);
    const double dram_roof = limits.dram_gbps * (limits.dram_measured ? kMeasuredSlack : kRateSlack);
    const double l2_roof = limits.l2_gbps * (limits.l2_measured ? kL2MeasuredSlack : kRateSlack);
    const double dram_floor_s = limits.dram_gbps > 0 ? (limits.bytes - resident) / (dram_roof * 1e9) : 0;
    const double l2_floor_s = limits.l2_gbps > 0 ? limits.bytes / (l2_roof * 1e9) : 0;
    if (seconds < dram_floor_s && dram_floor_s >= l2_floor_s) {
      fail(format("bandwidth check: %.6g GB/s is above the device's memory bandwidth (%.6g GB/s, ",
                  gbps, limits.dram_gbps) +
           (limits.dram_measured ? "measured" : "theoretical") +
           ") for the bytes that cannot be in L2");
    } else if (seconds < l2_floor_s) {
      fail(limits.l2_measured
               ? format("bandwidth check: %.6g GB/s is above the L2's bandwidth (%.6g GB/s, "
                        "measured)",
                        gbps, limits.l2_gbps)
               : format("bandwidth check: %.6g GB/s is above the rate the SMs can load and store "
                        "(%.6g GB/s)",
                        gbps, limits.l2_gbps));
    }
    const double gflops = limits.flops / seconds / 1e9;
    if (limits.math_peak_gflops > 0 && gflops > kRateSlack * limits.math_peak_gflops) {
      fail(format("FLOP/s check: %.6g GFLOP/s is above the device's %.6g GFLOP/s peak", gflops,
                  limits.math_peak_gflops) +
           " for " + limits.math);
    }
  }

  if (t.batch_us > 0 && t.median_us > 0) {
    if (t.batch_us < (1 - kAgreement) * t.median_us - kTimerResolutionUs) {
      verdict.notes.push_back(format(
          "self-check: back to back a launch took %.4g us, %.2g%% less than the median: the "
          "samples hold more than the kernel",
          t.batch_us, 100 * (1 - t.batch_us / t.median_us)));
    }
    // Back to back, the GPU waits for whichever is slower: the kernels, or the host enqueueing.
    const double paced = std::max(t.median_us, std::isnan(t.enqueue_us) ? 0.0 : t.enqueue_us);
    // The kernels the plugin says a launch enqueues, or those CUPTI saw where it saw more.
    const double kernels = std::max({1.0, static_cast<double>(t.kernels),
                                     std::isnan(t.cupti_operations) ? 0.0 : t.cupti_operations});
    const double expected = paced + kernels * kGapPerKernelUs;
    if (t.batch_us > (1 + kAgreement) * expected + kTimerResolutionUs) {
      verdict.notes.push_back(format(
          "self-check: back to back a launch took %.4g us, more than the median %.4g us and "
          "launch overhead explain",
          t.batch_us, t.median_us));
    }
  }
  if (t.cupti_operations >= 0 && t.median_us > 0) {
    const double spread = std::isnan(t.stddev_us) ? 0.0 : t.stddev_us;
    const double cupti_possible_us =
        kCuptiImpossible * t.median_us +
        kCuptiStandardErrors * spread / std::sqrt(std::max(1, t.cupti_launches)) + kCuptiSlackUs;
    const bool none_here = t.cupti_operations == 0 || t.cupti_other_operations >= t.cupti_operations;
    if (none_here) {
      fail_too(t.cupti_operations == 0
                   ? std::string("CUPTI stream check: a traced launch ran no kernel, copy or "
                                 "memset on the device")
                   : format("CUPTI stream check: the %.3g kernels, copies and memsets of a launch "
                            "ran on a stream other than the one given, which the events do not "
                            "see",
                            t.cupti_operations));
    } else if (t.cupti_busiest_us > cupti_possible_us) {
      fail_too(format("CUPTI check: one stream ran %.4g us of kernels per launch, the events "
                      "timed %.4g us: work the launch did not wait for, or an events clock "
                      "running slow",
                      t.cupti_busiest_us, t.median_us));
    }
    if (!none_here && t.cupti_other_operations > 0) {
      verdict.notes.push_back(format(
          "CUPTI: %.3g of the %.3g kernels, copies and memsets of a launch ran on a stream other "
          "than the one given (timed only where the launch waits for them)",
          t.cupti_other_operations, t.cupti_operations));
    }
    const double gaps = kGapPerKernelUs + std::max(0.0, t.cupti_operations - 1) * kDependentKernelGapUs;
    if (t.cupti_us > (1 + kCuptiAgreement) * t.median_us + kTimerResolutionUs &&
        t.cupti_busiest_us <= cupti_possible_us) {
      verdict.notes.push_back(format(
          "CUPTI: the device ran %.4g us per launch, more than the median %.4g us (streams side "
          "by side?)",
          t.cupti_us, t.median_us));
    } else if (t.held && !none_here &&
               t.cupti_us < (1 - kCuptiAgreement) * t.median_us - gaps - kTimerResolutionUs) {
      verdict.notes.push_back(format(
          "CUPTI: the device ran %.4g us per launch, %.2g%% less than the median: the samples "
          "hold more than the kernels (gaps between them, work the device waits for)",
          t.cupti_us, 100 * (1 - t.cupti_us / t.median_us)));
    }
  }
  // A host time below the median says the samples held more than the launch (a launch that waits
  // timed without the hold, a held sample of a launch that slows its own start): noted. A clock
  // made to run slow shortens the median instead, which CUPTI's kernels contradict (above).
  if (t.host_us > 0 && t.median_us > 0 &&
      t.host_us < (1 - kAgreement) * t.median_us - kTimerResolutionUs) {
    verdict.notes.push_back(format(
        "self-check: a synchronised launch took %.4g us on the host, less than the GPU median "
        "%.4g us",
        t.host_us, t.median_us));
  }
  if (t.held && t.sample_launches > 1 && t.single_us > 0 && t.median_us > 0) {
    const double gain = std::isnan(t.launch_gain_us) ? kDefaultLaunchGainUs
                                                     : std::max(t.launch_gain_us, 0.0);
    const double allowed = gain + kLaunchAccountingSlack * t.single_us + kLaunchAccountingSlackUs;
    if (t.median_us < t.single_us - allowed) {
      fail_too(format("launch accounting: %.4g launches back to back took %.4g us each, a launch "
                      "alone ",
                      t.sample_launches, t.median_us) +
               format("%.4g us, more than the device's own gain of %.3g us explains: launches no "
                      "check saw did less",
                      t.single_us, gain));
    }
  }
  return verdict;
}

}  // namespace kb
