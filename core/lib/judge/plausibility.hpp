// The checks a timed case passes before its row may say `ok`. A figure no device can produce (a
// bandwidth above the memory's, a FLOP/s above the peak of the plugin's math, a GPU time that
// explains only a fraction of the host's wall time, a launch that put no work on its stream,
// kernels CUPTI saw run longer, or elsewhere, than the events could have timed: a clock made to run
// slow), or samples of several launches faster per launch than a launch alone beyond what the
// device itself gains back to back, makes the row `implausible`; timings of one case that disagree with each other beyond what
// launch overhead explains give the row a note. Pure functions over numbers, so each rule is
// tested on synthetic figures.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace kb {

// What the worker measured of one case (NaN: not measured).
struct CaseTimings {
  double median_us = NAN;       // the samples' median
  double stddev_us = NAN;       // and their spread (NaN: one sample)
  double batch_us = NAN;        // per launch, launches back to back without the blocking kernel
  double enqueue_us = NAN;      // host time to enqueue one launch in that batch
  double host_us = NAN;         // host wall time of one launch plus a device-wide synchronise
  double host_idle_us = NAN;    // the same for an empty kernel: the host's own cost right then
  int kernels = 0;              // kernels one launch enqueued, as the plugin said (0: unknown)
  // Operations one captured launch put on the stream it was given; none when not checked.
  std::optional<long long> captured_operations;
  // The least one-launch sample with the outputs poisoned just before, and without.
  double poisoned_us = NAN;
  double single_us = NAN;
  // The samples hid the launch latency (`timing` = held): the median is the kernels' time.
  bool held = true;
  // A CUDA launch timed without the hold (`timing` = plain): its host share (a wait, copies from
  // pageable memory) is between the events.
  bool plain = false;
  // Launches per sample, and what the device itself gains per launch back to back over a launch
  // alone (measured on kbench's own kernel of about the case's length; NaN: not measured).
  int sample_launches = 1;
  double launch_gain_us = NAN;
  // The fourth clock (CUPTI's trace of one more batch, per launch; NaN: not traced): the device
  // time of the kernels, copies and memsets on every stream, on the busiest stream, and how many
  // ran, and how many of them on a stream other than the one given.
  double cupti_us = NAN;
  double cupti_busiest_us = NAN;
  double cupti_operations = NAN;
  double cupti_other_operations = NAN;
  int cupti_launches = 1;       // the launches traced, whose mean the figures are
};

// What one launch claims to do, and what the device can do at most.
struct CaseLimits {
  double bytes = 0, flops = 0;
  bool cold = false;               // L2 flushed before every sample
  double dram_gbps = 0;            // what DRAM measurably delivers (else its theory)
  bool dram_measured = false;
  double l2_bytes = 0;
  double l2_gbps = 0;              // what the L2 measurably delivers (else the SMs' load/store rate)
  bool l2_measured = false;
  double math_peak_gflops = 0;     // the peak of the math held to; 0: unknown, not judged
  std::string math;                // its name, for the message
};

struct PlausibilityVerdict {
  std::string implausible;         // empty, or the failed check, named, with the figures
  std::vector<std::string> notes;  // disagreements that leave the status as it is
};

PlausibilityVerdict check_plausibility(const CaseTimings& timings, const CaseLimits& limits);

}  // namespace kb
