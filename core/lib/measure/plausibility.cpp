#include "measure/plausibility.hpp"

#include <algorithm>
#include <cstdio>

namespace kb {
namespace {

// A rate may exceed its nominal ceiling by this much before it is called impossible: the event
// timer's resolution and clock reporting leave a few percent of slack, never a factor.
constexpr double kRateSlack = 1.10;
// Working sets up to this many L2 sizes may be served partly from L2 in hot-cache mode, so only
// the SMs' load/store rate bounds their bandwidth; beyond it the bytes come from memory.
constexpr double kL2Reach = 2.0;
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
  if (t.median_us > 0) {
    const double seconds = t.median_us * 1e-6;
    const double gbps = limits.bytes / seconds / 1e9;
    const bool from_memory = limits.cold || limits.bytes > kL2Reach * limits.l2_bytes;
    if (from_memory && limits.dram_gbps > 0 && gbps > kRateSlack * limits.dram_gbps) {
      fail(format("bandwidth check: %.6g GB/s is above the device's theoretical memory bandwidth "
                  "%.6g GB/s",
                  gbps, limits.dram_gbps));
    } else if (limits.load_store_gbps > 0 && gbps > kRateSlack * limits.load_store_gbps) {
      fail(format("bandwidth check: %.6g GB/s is above the rate the SMs can load and store "
                  "(%.6g GB/s)",
                  gbps, limits.load_store_gbps));
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
    const double expected = paced + std::max(1, t.kernels) * kGapPerKernelUs;
    if (t.batch_us > (1 + kAgreement) * expected + kTimerResolutionUs) {
      verdict.notes.push_back(format(
          "self-check: back to back a launch took %.4g us, more than the median %.4g us and "
          "launch overhead explain",
          t.batch_us, t.median_us));
    }
  }
  if (t.host_us > 0 && t.median_us > 0 &&
      t.host_us < (1 - kAgreement) * t.median_us - kTimerResolutionUs) {
    verdict.notes.push_back(format(
        "self-check: a synchronised launch took %.4g us on the host, less than the GPU median "
        "%.4g us",
        t.host_us, t.median_us));
  }
  return verdict;
}

}  // namespace kb
