// How the worker times a case: the stopping rule, and the switches of `kbench run` that change
// the method (latency hiding, cold cache, profiling, every sample kept, an energy window).
#pragma once

#include "util/statistics.hpp"

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
};

}  // namespace kb
