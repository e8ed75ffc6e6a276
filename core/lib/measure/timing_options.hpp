// How the worker times a case: the stopping rule, and the switches of `kbench run` that change
// the method (latency hiding, cold cache, profiling, every sample kept, an energy window), and
// what CUPTI adds to a row (the fourth clock, --metrics).
#pragma once

#include "device/counters.hpp"
#include "util/statistics.hpp"

#include <string>
#include <vector>

namespace kb {

struct TimingOptions {
  StoppingRule rule;
  bool hide_launch_latency = true;
  bool cold = false;          // flush L2 before every sample
  bool profile = false;       // one launch per case, no warm-up, no sampling (for ncu --nvtx)
  bool keep_samples = false;  // return every sample in the outcome (sample_list)
  // > 0: the board's energy per launch, over a window of this many seconds of back-to-back
  // launches after the samples (NVML's energy counter moves every 100 ms, so a second or more).
  double energy_window_seconds = 0;
  // The CUPTI clock: one more batch of launches traced (cupti_us, cupti_kernels); --no-cupti
  // turns it off.
  bool cupti_clock = true;
  // --metrics: the hardware counters of one more launch, as given (the worker parses the same
  // text) and parsed; empty: none.
  std::string metrics;
  std::vector<Counter> counters;
};

}  // namespace kb
