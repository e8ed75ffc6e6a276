// What became of one case: the worker's measurements, or what the parent knows when there are
// none (a planned refusal, a crash, a timeout). Typed from the worker's timing loop to the row
// builder; numbers are formatted only where rows are written. On the worker pipe it travels as one
// `result` record (protocol/codec.hpp), every double in full, so what the parent reads is bit for
// bit what the worker measured.
#pragma once

#include "case/case_status.hpp"

#include <kbench/plugin.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kb {

// How the samples were taken (the `timing` column).
enum class TimingMethod { held, plain, host, profile };

inline constexpr std::pair<TimingMethod, const char*> kTimingMethods[] = {
    {TimingMethod::held, "held"},
    {TimingMethod::plain, "plain"},
    {TimingMethod::host, "host"},
    {TimingMethod::profile, "profile"}};

const char* timing_name(TimingMethod method);

struct SampleSummary {
  long long count = 0;
  double median_us = 0, min_us = 0, mean_us = 0, stddev_us = 0;
  double noise = 0;      // relative half-width of the 95% interval of the median
  bool settled = false;  // the noise target was met before the time limit
};

// What the last launch said it enqueued (kb_launch_config).
struct LaunchShape {
  std::array<std::uint32_t, 3> grid{0, 0, 0};
  std::array<std::uint32_t, 3> block{0, 0, 0};
  std::uint32_t kernels = 0;
};

struct VerificationFigures {
  double max_rel_error = 0;
  double tolerance = 0;
  std::string metrics;  // the family's "key=value;..." text
};

// The GPU as NVML saw it during the samples.
struct DeviceState {
  unsigned sm_clock_mhz = 0;  // the lowest reading
  unsigned temperature_c = 0;
  std::string throttle;  // clock-slowdown reasons, "" when none
};

// What CUPTI's activity tracing saw of one more batch of launches, per launch (the fourth clock,
// measure/cupti_clock.hpp): device time and operations (kernels, copies, memsets).
struct CuptiFigures {
  double us = 0;               // every stream of the context (`cupti_us`)
  double stream_us = 0;        // the stream the launch was given
  double busiest_us = 0;       // the stream with the most
  double operations = 0;       // every stream (`cupti_kernels`)
  double other_operations = 0;  // on another stream than the one given
  std::string kernels;          // the kernels a launch ran, by name (`kernels`)
  int launches = 1;             // traced, back to back: the figures are their mean
};

// Where the case's wall time went in the worker, in seconds (the sweep's closing line). `cupti`
// and `counters` (the fourth clock, --metrics) are parts of `timing`.
struct PhaseSeconds {
  double setup = 0, timing = 0, verify = 0;
  double cupti = 0, counters = 0;
};

struct CaseOutcome {
  CaseStatus status = CaseStatus::error;
  std::string message;
  bool context_lost = false;  // a sticky CUDA error: the worker must not run another case

  // The work of one launch (kb_work), once setup succeeded.
  std::optional<double> bytes, flops;

  std::optional<TimingMethod> timing;
  int sample_launches = 0;  // launches per sample
  std::optional<SampleSummary> samples;
  std::vector<double> sample_list;  // every sample, in microseconds, with --keep-samples

  // The row's self-checks, in microseconds; absent where they were not taken.
  std::optional<double> batch_us, enqueue_us, host_us, host_idle_us;
  std::optional<long long> captured_operations;  // on the given stream, by one captured launch
  // The least of the checked samples (one launch each, its outputs poisoned just before) and of
  // as many plain one-launch samples: a launch that does less when its outputs already hold the
  // answer shows as a gap between the two.
  std::optional<double> poisoned_us, single_us;
  // What the device itself gains per launch back to back over a launch alone, on kbench's own
  // kernel of about the case's length: the allowance for samples of several launches.
  std::optional<double> launch_gain_us;
  std::optional<double> power_w, energy_j;       // --energy-window
  std::optional<CuptiFigures> cupti;             // the fourth clock, where CUPTI traced
  std::string counters;  // --metrics: "label=value;..." (device/counters.hpp), "" when none
  // Why CUPTI added nothing to this case, one line each, for the run to say once (not the row's
  // message): the clock's and the counters'.
  std::string cupti_unavailable, counters_unavailable;

  std::optional<LaunchShape> launch;
  std::optional<VerificationFigures> verification;
  std::optional<DeviceState> device_state;
  std::optional<PhaseSeconds> phases;

  // A kernel file's case: how the code that ran was made (the compiler, its version and options,
  // the entry), "" for a plugin's.
  std::string kernel_compiler;

  // A case that did not run, with the reason.
  static CaseOutcome without_run(CaseStatus status, std::string message);
};

}  // namespace kb
