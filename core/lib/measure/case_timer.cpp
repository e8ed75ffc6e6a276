#include "measure/case_timer.hpp"

#include "device/device_info.hpp"
#include "measure/energy_window.hpp"
#include "measure/launch_gain.hpp"
#include "measure/remote_refereed_case.hpp"
#include "measure/self_checks.hpp"
#include "util/number_text.hpp"
#include "util/plugin_text.hpp"
#include "util/secret_seed.hpp"
#include "util/seconds_since.hpp"

#include <kbench/support/error.hpp>
#include <kbench/support/random.hpp>

#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <limits>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <thread>

namespace kb {
namespace {

// A sticky error (illegal address, launch failure...) poisons the context for good: every later
// call fails the same way, so the worker must be replaced.
bool cuda_context_lost() {
  if (cudaDeviceSynchronize() == cudaSuccess) return false;
  cudaGetLastError();
  return cudaDeviceSynchronize() != cudaSuccess;
}

// Samples voided in a row by a launch that waited behind the blocking kernel before the case is
// timed without it: once can be a scheduling hiccup of the host, twice is the launch itself.
constexpr int kVoidSamplesBeforeUnheld = 2;

// nvbench's default throttle threshold: a clock under 75% of the maximum.
constexpr double kThrottledClock = 0.75;
constexpr double kClockReadSeconds = 0.01;

// A launch that keeps the host this much longer while the stream is held than while it is not, in
// each of the first held samples, waits inside run for work the held stream's events cannot see.
constexpr std::size_t kHeldHostSamples = 3;
// The launches with the stream free that measure it stop once they have taken this long: a slow
// kernel's one launch tells its host time as well as three (and three of a 270 ms kernel cost
// most of a second).
constexpr double kFreeHostSeconds = 0.002;
constexpr double kHeldHostRatio = 2;
constexpr double kHeldHostSlackUs = 5;

// How many launches a held sample holds: enough for kSampleTargetUs, so the GPU's own cost of
// starting a lone launch after the hold (1-3 us on Hopper, which back-to-back launches overlap
// with the kernel before) is a small part of each sample.
constexpr double kSampleTargetUs = 200;
constexpr int kMaxLaunchesPerSample = 256;

// The CUPTI clock's batch: enough launches back to back for about kCuptiBatchUs (its cost beside
// the samples' 20 ms and more), at most kCuptiMaxLaunches, and at least kCuptiMinLaunches where
// they fit in kCuptiLongestBatchUs: the check then rests on a mean of several of the kernel's times
// (the default sweep's CUPTI clock on an H100: 2.58 s with one launch from 500 us up, 7.28 s with
// four whatever the length, 2.55 s with four up to 5 ms and as many as fit in 20 ms above).
constexpr double kCuptiBatchUs = 500;
constexpr int kCuptiMinLaunches = 4;
constexpr double kCuptiLongestBatchUs = 20'000;
constexpr int kCuptiMaxLaunches = 64;

// Samples whose outputs are poisoned before and checked after, at positions the strategy cannot
// foresee among the first kCheckedWithin samples; one alone where a launch takes kSlowLaunchUs or
// more, so a slow launch's case does not take twice as long. Those the stopping rule leaves out
// are taken after the last sample.
constexpr int kCheckedSamples = 3;
constexpr int kCheckedWithin = 10;
constexpr double kSlowLaunchUs = 5000;
// A host launch of kHostWarmUpSampleUs or more is its own warm-up: what a first launch pays over
// the next (its threads and caches woken after the referee's poison) is a few hundred microseconds
// of it at most, so its warm-up is checked and kept as its first sample. The serial matmul of seed
// 003 (5.3 s a launch on an H100's host) then takes three launches, not four.
constexpr double kHostWarmUpSampleUs = 100'000;

// What a launch on slightly changed inputs, timed as the samples were but alone, may take beside
// their median before the timed launches are judged to have done less: what the device gains per
// launch back to back (where a sample holds several); what a launch pays for following the
// referee's work (another context on the GPU, a host that waited), as the checked samples paid it,
// at most half the median and 10 us (the median and 20 us where the host's share of a launch is
// timed: on a host, or a launch that synchronises); the samples' own spread (the 10th to the 90th
// percentile), at least 5% of the median; and a timer's tick. A memo that saves a third of a 10 us
// kernel shows. Without samples (a profile), four times the median and 50 us.
constexpr double kChangedInputsSpread = 0.05;
constexpr double kChangedInputsSlackUs = 0.5;
constexpr double kChangedInputsFallback = 4;
constexpr double kChangedInputsFallbackUs = 50;
constexpr double kRefereePenaltyRatio = 0.5;
constexpr double kRefereePenaltyUs = 10;
constexpr double kHostRefereePenaltyRatio = 1;
constexpr double kHostRefereePenaltyUs = 20;
// A host strategy's launch after the worker waited on the referee wakes its threads and its caches
// first: a CPU transpose of 1111x113 took 2.4-2.8x its median so on a CI machine, the same in every
// try. A host launch is allowed twice its median and 200 us at least (a memo of a host matmul still
// misses by factors; a strategy that saves a quarter of a 40 us transpose passes).
constexpr double kHostChangedInputsRatio = 2;
constexpr double kHostChangedInputsUs = 200;
// A CUDA launch timed plain (one that synchronises in launch) has its host share between the
// events, and pays the same wake-up: reduce/multi_block, a kernel, a copy back from its own
// memory, a wait and a copy from pageable memory into the shared output, took 11-23 us more than
// its 17-21 us median after the referee's round trip on an H200. It is bounded as a host launch is
// (the median and 20 us) and allowed twice its median and 20 us.
constexpr double kPlainChangedInputsRatio = 2;
constexpr double kPlainChangedInputsUs = 20;
// A launch on changed inputs held against one after the same round trip on inputs rewritten as
// they were: the slower of the samples' spread and this share of that launch, and a timer's tick.
// Up to kChangedInputsPairs pairs, after pauses that double from the first: 2 + 4 + 8 + 16 ms, so
// a hold-up of the host has passed by a later pair. A kept answer misses on every try, however
// they are spaced.
constexpr double kChangedInputsPairedShare = 0.10;
constexpr int kChangedInputsPairs = 5;
constexpr std::chrono::milliseconds kChangedInputsFirstPause{2};

// The 10th to the 90th percentile of the samples; 0 for fewer than two.
double samples_spread(std::vector<double> samples) {
  if (samples.size() < 2) return 0;
  std::sort(samples.begin(), samples.end());
  const auto at = [&](double q) {
    return samples[static_cast<std::size_t>(q * static_cast<double>(samples.size() - 1) + 0.5)];
  };
  return at(0.9) - at(0.1);
}

double changed_inputs_limit(const std::vector<double>& samples, double median_us, double gain_us,
                            double penalty_us) {
  if (samples.size() < 2) return kChangedInputsFallback * median_us + kChangedInputsFallbackUs;
  return median_us + std::max(gain_us, 0.0) + penalty_us +
         std::max(samples_spread(samples), kChangedInputsSpread * median_us) +
         kChangedInputsSlackUs;
}

double paired_changed_inputs_limit(const std::vector<double>& samples, double median_us,
                                   double same_inputs_us) {
  return same_inputs_us +
         std::max({samples_spread(samples), kChangedInputsPairedShare * same_inputs_us,
                   kChangedInputsSpread * median_us}) +
         kChangedInputsSlackUs;
}

// The sample indices checked in a case: distinct, drawn from the case's check seed.
std::vector<int> checked_indices(std::uint64_t seed) {
  std::vector<int> chosen;
  for (std::uint64_t i = 0; chosen.size() < kCheckedSamples; ++i) {
    const int index = static_cast<int>(random_bits(seed, 0xC4EC4ED, i) % kCheckedWithin);
    if (std::find(chosen.begin(), chosen.end(), index) == chosen.end()) chosen.push_back(index);
  }
  return chosen;
}

void append_note(std::string& notes, const std::string& note) {
  if (note.empty()) return;
  notes += (notes.empty() ? "" : "; ") + note;
}

std::string describe(const CaseRequest& r) {
  std::string text = std::string(dtype_name(r.dtype)) + " ";
  if (!r.op.empty()) text += r.op + " ";
  return text + format_extent(r.shape) + " " + format_block(r.block);
}

// Setup, timing and verify, one after the other: each phase's seconds end where the next begin.
class PhaseClock {
 public:
  explicit PhaseClock(PhaseSeconds& seconds)
      : phases_{&seconds.setup, &seconds.timing, &seconds.verify} {}
  void end() {
    *phases_[next_++] = seconds_since(start_);
    start_ = SteadyClock::now();
  }
  void end_all() {
    while (next_ < std::size(phases_)) end();
  }

 private:
  double* phases_[3];
  std::size_t next_ = 0;
  SteadyClock::time_point start_ = SteadyClock::now();
};

}  // namespace

CaseTimer::CaseTimer(const KernelPlugin& plugin, const KernelFamily* family,
                     const PacketChannel* referee, int output_fd, int device,
                     TimingOptions options)
    : plugin_(plugin), family_(family), referee_(referee), output_fd_(output_fd),
      options_(options) {
  if (!cuda()) return;
  KB_CUDA_CHECK(cudaSetDevice(device));
  KB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  timer_ = std::make_unique<CudaTimer>();
  // A profiler serialises every kernel, so in --profile mode the spinning kernel would only wait
  // out its timeout.
  if (holds_stream()) blocker_ = std::make_unique<BlockingKernel>();
  monitor_ = std::make_unique<GpuMonitor>(device_uuid(device));
  if (options_.cold) flush_ = std::make_unique<L2Flush>(device);
  // A profiler attached (--profile under Nsight Compute) wants the launches to itself.
  if (!options_.profile && options_.cupti_clock) cupti_clock_ = std::make_unique<CuptiClock>();
  if (!options_.profile && !options_.counters.empty()) {
    counters_ = std::make_unique<CounterProfiler>(device, options_.counters);
    dram_gbps_ = query_device(device).theoretical_gbps;
  }
}

CaseTimer::~CaseTimer() {
  if (stream_ != nullptr) cudaStreamDestroy(stream_);
}

CaseOutcome CaseTimer::run(const CaseRequest& request) {
  // The runner's own CUDA calls throw only when the device is beyond use; the plugin's hooks
  // never throw. Either way the case ends as a row.
  try {
    if (cuda()) cudaGetLastError();  // nothing left over from the case before
    return run_unguarded(request);
  } catch (const std::exception& e) {
    CaseOutcome outcome =
        CaseOutcome::without_run(CaseStatus::error, std::string("runner: ") + e.what());
    outcome.context_lost = cuda() && cuda_context_lost();
    return outcome;
  }
}

kb_status CaseTimer::before_launch(CaseUnderTest& test, kb_message& message) {
  return zeroes_outputs() ? test.zero_outputs(stream_, message) : KB_OK;
}

kb_status CaseTimer::timed_launches(CaseUnderTest& test, const LaunchOnce& launch, bool hold,
                                    int launches, kb_message& message, double& microseconds,
                                    bool& hold_timed_out, double* host_us) {
  hold_timed_out = false;
  if (const kb_status s = before_launch(test, message); s) return s;
  if (!cuda()) {
    const auto start = SteadyClock::now();
    const kb_status status = launch(nullptr);
    microseconds = seconds_since(start) * 1e6;
    return status;
  }
  // Outside the timed region: evicts the inputs from L2.
  if (flush_) flush_->flush(stream_);
  if (hold) blocker_->block(stream_);
  timer_->start(stream_);
  kb_status status = KB_OK;
  const auto enqueued = SteadyClock::now();
  for (int i = 0; i < launches && status == KB_OK; ++i) status = launch(stream_);
  if (host_us != nullptr) *host_us = seconds_since(enqueued) * 1e6 / launches;
  timer_->stop(stream_);
  if (hold) blocker_->release();
  if (status != KB_OK) return status;
  if (const kb_status s = from_cuda(timer_->wait(), message, "timed launch"); s) return s;
  hold_timed_out = hold && blocker_->timed_out();
  microseconds = timer_->elapsed_us() / launches;
  return KB_OK;
}

bool CaseTimer::same_output(CaseUnderTest& test, Sampling& sampling, Failure& failure) {
  sampling.compared_output = true;
  if (plugin_.flags & KB_FLAG_NONDETERMINISTIC) return true;
  const CheckAnswer same = test.same_output(stream_);
  if (same.status == KB_OK) return true;
  failure = {same.status, same.status == KB_VERIFY_FAILED ? same.failure : "verify: " + same.message};
  return false;
}

kb_status CaseTimer::checked_sample(CaseUnderTest& test, const LaunchOnce& launch, bool hold,
                                    kb_message& message, Sampling& sampling, Failure& failure) {
  double us = 0;
  bool hold_timed_out = false;
  // A plain twin where the samples hold several launches; where they hold one, they are the
  // plain one-launch samples already.
  if (sampling.launches > 1) {
    if (const kb_status s = timed_launches(test, launch, hold, 1, message, us, hold_timed_out)) return s;
    if (!hold_timed_out) sampling.single_us.push_back(us);
  }
  if (const kb_status s = test.poison(stream_, message)) {
    sampling.failed_stage = "poison";
    return s;
  }
  if (const kb_status s = timed_launches(test, launch, hold, 1, message, us, hold_timed_out)) return s;
  if (!hold_timed_out) sampling.poisoned_us.push_back(us);
  if (const kb_status s = judge_checked_launch(test, message, sampling, failure); s || failure.status) {
    return s;
  }
  // A slow launch's checked sample is one of its samples: the same one-launch method, the poison
  // outside the timed region, and a launch of its length too dear to take twice.
  if (!hold_timed_out && sampling.launches == 1 && us >= kSlowLaunchUs) {
    sampling.samples.push_back(us);
  }
  return KB_OK;
}

kb_status CaseTimer::judge_checked_launch(CaseUnderTest& test, kb_message& message,
                                          Sampling& sampling, Failure& failure) {
  const CheckAnswer check = test.check(checks::kTimedLaunch, stream_);
  if (check.status != KB_OK && check.status != KB_VERIFY_FAILED) {
    sampling.failed_stage = "verify";
    std::snprintf(message.text, sizeof message.text, "%s", check.message.c_str());
    return check.status;
  }
  if (check.status == KB_VERIFY_FAILED) {
    failure = {KB_VERIFY_FAILED, check.failure};
    return KB_OK;
  }
  if (!sampling.figures) sampling.figures = check.figures;
  same_output(test, sampling, failure);
  return KB_OK;
}

double CaseTimer::referee_penalty_us(const Sampling& sampling, double median_us) const {
  if (sampling.poisoned_us.empty()) return 0;
  std::vector<double> alone = sampling.single_us;
  if (sampling.launches == 1) alone.insert(alone.end(), sampling.samples.begin(), sampling.samples.end());
  if (alone.empty()) return 0;
  const double paid = *std::min_element(sampling.poisoned_us.begin(), sampling.poisoned_us.end()) -
                      *std::min_element(alone.begin(), alone.end());
  const double most = host_share_timed()
                          ? kHostRefereePenaltyRatio * median_us + kHostRefereePenaltyUs
                          : kRefereePenaltyRatio * median_us + kRefereePenaltyUs;
  return std::clamp(paid, 0.0, most);
}

kb_status CaseTimer::unheld_host_time(const LaunchOnce& launch, kb_message& message,
                                      double& host_us) {
  host_us = std::numeric_limits<double>::infinity();
  const auto began = SteadyClock::now();
  for (std::size_t i = 0; i < kHeldHostSamples; ++i) {
    if (i > 0 && seconds_since(began) >= kFreeHostSeconds) break;
    const auto start = SteadyClock::now();
    if (const kb_status s = launch(stream_)) return s;
    host_us = std::min(host_us, seconds_since(start) * 1e6);
    if (const kb_status s = from_cuda(cudaStreamSynchronize(stream_), message, "launch")) return s;
  }
  return KB_OK;
}

kb_status CaseTimer::sample(CaseUnderTest& test, const LaunchOnce& launch,
                            const std::string& range, std::uint64_t seed, kb_message& message,
                            Sampling& sampling, Failure& failure) {
  sampling.held = holds_stream();
  if (cuda() && options_.hide_launch_latency && (plugin_.flags & KB_FLAG_SYNCHRONIZES)) {
    sampling.note = "timed without latency hiding: the plugin synchronises in launch "
                    "(KB_FLAG_SYNCHRONIZES)";
  }
  // One launch per sample when each launch must be alone (cold cache, a profiler, outputs zeroed
  // before each) or when the launch latency is part of the figure anyway.
  if (sampling.held && !options_.cold && !zeroes_outputs()) {
    double probe_us = 0;
    bool hold_timed_out = false;
    if (const kb_status s =
            timed_launches(test, launch, true, 1, message, probe_us, hold_timed_out)) {
      return s;
    }
    if (!hold_timed_out) {
      sampling.launches = static_cast<int>(
          std::clamp(std::ceil(kSampleTargetUs / std::max(probe_us, 0.1)), 1.0,
                     static_cast<double>(kMaxLaunchesPerSample)));
    }
  }
  // The SM clock, read between samples every kClockReadSeconds (as nvbench watches for
  // throttling): the lowest reading is the row's clock.
  auto clock_read_at = SteadyClock::now() - std::chrono::seconds(1);
  const auto read_clock = [&] {
    if (!monitor_ || seconds_since(clock_read_at) < kClockReadSeconds) return;
    clock_read_at = SteadyClock::now();
    if (const auto mhz = monitor_->sm_clock_mhz()) {
      sampling.lowest_clock_mhz = std::min(sampling.lowest_clock_mhz.value_or(*mhz), *mhz);
    }
  };
  // What a launch costs the host with the stream free: a launch that takes far longer while the
  // stream is held waits inside run (for work of its own elsewhere) where no event looks.
  double free_host_us = 0;
  if (sampling.held) {
    if (const kb_status s = unheld_host_time(launch, message, free_host_us)) return s;
  }
  std::vector<double> held_host_us;
  std::vector<int> checked = options_.profile ? std::vector<int>{} : checked_indices(seed);
  // A long host launch's warm-up was its checked first sample: nothing is left to check, and the
  // stopping rule counts its time. Another launch the warm-up found slow: its first sample is the
  // checked one (and counts as a sample), so no launch is spent on checking alone.
  if (!sampling.samples.empty()) {
    checked.clear();
  } else if (sampling.slow && !checked.empty()) {
    checked = {0};
  }
  const double warm_up_s = sampling.samples.empty() ? 0 : sampling.samples.front() * 1e-6;
  int void_in_a_row = 0;
  const auto start = SteadyClock::now();
  const auto judged = [&] {
    return options_.rule.judge(sampling.samples, warm_up_s + seconds_since(start));
  };
  StoppingRule::Verdict verdict = sampling.samples.empty() ? StoppingRule::Verdict::more : judged();
  while (verdict == StoppingRule::Verdict::more) {
    const std::size_t index = sampling.samples.size();
    if (const auto at = std::find(checked.begin(), checked.end(), static_cast<int>(index));
        at != checked.end()) {
      checked.erase(at);
      if (const kb_status s =
              checked_sample(test, launch, sampling.held, message, sampling, failure)) {
        return s;
      }
      if (failure.status != KB_OK) return KB_OK;
    }
    // A slow launch's checked sample was this round's sample.
    if (sampling.samples.size() == index) {
      double us = 0;
      bool hold_timed_out = false;
      nvtxRangePushA(range.c_str());
      // --profile: the one launch is also the profiler's range (Nsight Compute's --replay-mode
      // range with --profile-from-start off: what scripts/ncu-compare.sh holds --metrics against).
      if (options_.profile && cuda()) cudaProfilerStart();
      double host_us = 0;
      const kb_status status =
          timed_launches(test, launch, sampling.held, sampling.held ? sampling.launches : 1,
                         message, us, hold_timed_out, &host_us);
      if (options_.profile && cuda()) cudaProfilerStop();
      nvtxRangePop();
      if (status != KB_OK) return status;
      if (hold_timed_out) {
        // The launch waited for the device while the stream was held, so the sample holds the
        // blocking kernel's timeout: void, taken again. Twice in a row means the launch always
        // waits; this case alone is then timed without the hold, and its row says so.
        if (++void_in_a_row == kVoidSamplesBeforeUnheld) {
          sampling.held = false;
          sampling.note = "timed without latency hiding: the launch waited for the device while "
                          "the stream was held (" +
                          std::to_string(kVoidSamplesBeforeUnheld) + " samples in a row)";
        }
        continue;
      }
      void_in_a_row = 0;
      if (sampling.held) {
        held_host_us.push_back(host_us);
        const double least = *std::min_element(held_host_us.begin(), held_host_us.end());
        if (held_host_us.size() >= kHeldHostSamples &&
            least > kHeldHostRatio * free_host_us + kHeldHostSlackUs) {
          // Every held launch kept the host waiting: time it as one that synchronises, from the
          // launch call to its end, and start the samples over.
          sampling.held = false;
          sampling.launches = 1;
          sampling.samples.clear();
          held_host_us.clear();
          sampling.note = "timed without latency hiding: a launch kept the host " +
                          significant_text(least) + " us while the stream was held, " +
                          significant_text(free_host_us) +
                          " us when it was not (it waits inside run)";
          continue;
        }
      }
      sampling.samples.push_back(us);
      if (sampling.samples.size() == 1 && us >= kSlowLaunchUs && checked.size() > 1) {
        checked.resize(1);
      }
    }
    read_clock();
    test.between_samples();
    verdict = options_.profile ? StoppingRule::Verdict::out_of_time
                               : judged();
  }
  sampling.settled = verdict == StoppingRule::Verdict::settled;
  // The last sample's launch against the first checked one: the same inputs, the same bits.
  if (sampling.compared_output && !same_output(test, sampling, failure)) return KB_OK;
  // Those the stopping rule left out, after the last sample: at least one timed launch is always
  // checked, or a strategy that does less only while it is timed (the stream held, say) would be
  // judged on the verdict's launches alone, which it can tell from timed ones.
  for (std::size_t i = 0; i < checked.size() && failure.status == KB_OK; ++i) {
    if (const kb_status s = checked_sample(test, launch, sampling.held, message, sampling, failure)) {
      return s;
    }
  }
  if (sampling.launches == 1 && !sampling.samples.empty()) {
    sampling.single_us.push_back(*std::min_element(sampling.samples.begin(), sampling.samples.end()));
  }
  if (!sampling.held) sampling.launches = 1;
  return KB_OK;
}

kb_status CaseTimer::verdict(CaseUnderTest& test, const LaunchOnce& launch, double median_us,
                             const std::vector<double>& samples, double gain_us,
                             double penalty_us, bool held, kb_message& message,
                             kb_verification& figures, Failure& failure) {
  // The outputs the last launch left, judged by the family (or the plugin's own verify).
  const auto judge = [&](const char* check, kb_verification& result,
                         std::optional<bool>* inputs_changed = nullptr) {
    const CheckAnswer answer = test.check(check, stream_);
    result = answer.figures;
    if (inputs_changed != nullptr) *inputs_changed = answer.inputs_changed;
    if (answer.status != KB_OK && answer.status != KB_VERIFY_FAILED) {
      std::snprintf(message.text, sizeof message.text, "%s", answer.message.c_str());
      return answer.status;
    }
    if (answer.status == KB_VERIFY_FAILED) failure = {KB_VERIFY_FAILED, answer.failure};
    return KB_OK;
  };
  const auto checked_launch = [&](const char* check, kb_verification& result) {
    if (const kb_status s = test.poison(stream_, message)) return s;
    if (const kb_status s = before_launch(test, message)) return s;
    if (const kb_status s = launch(stream_)) return s;
    if (cuda()) {
      if (const kb_status s = from_cuda(cudaStreamSynchronize(stream_), message,
                                        "synchronising after launch")) {
        return s;
      }
    }
    return judge(check, result);
  };
  // One launch timed as the samples were (held where they were), to be held against their median.
  const auto launch_as_sampled = [&](double& launch_us) {
    // Unheld, a launch right after the host's own work (the draw) finds its context idle, and
    // on a GPU shared with other processes the device has moved on: the launch waits out
    // another context's time slice. An empty kernel first, as a sample follows the one before.
    if (cuda() && !held) {
      launch_empty_kernel(stream_);
      if (const kb_status s = from_cuda(cudaStreamSynchronize(stream_), message, "empty launch")) {
        return s;
      }
    }
    // A hold that timed out (the launch waited for the device) still times the launch from the
    // hold's end: a plain time, no shorter than the launch's own.
    bool hold_timed_out = false;
    return timed_launches(test, launch, held, 1, message, launch_us, hold_timed_out);
  };
  if (!refereed()) return checked_launch("verify", figures);

  // The referee's digests of the inputs as last drawn against the inputs now; `who` wrote to them.
  const auto inputs_written = [&](const char* who) {
    const CheckAnswer unchanged = test.inputs_unchanged(who, stream_);
    if (unchanged.status != KB_OK) {
      failure = {unchanged.status, unchanged.status == KB_VERIFY_FAILED
                                       ? unchanged.failure
                                       : "verify: " + unchanged.message};
    }
    return unchanged.status != KB_OK;
  };
  if (inputs_written("the timed launches")) return KB_OK;
  // Inputs the strategy has not seen, drawn for the check.
  if (const kb_status s = test.draw(KB_DRAW_CHECK, stream_, message)) {
    return s;
  }
  if (const kb_status s = checked_launch(checks::kFreshInputs, figures); s || failure.status) return s;
  if (inputs_written("a launch")) return KB_OK;
  // The inputs changed in a few places (KB_DRAW_NEAR), and a launch over the output as the last
  // launch left it, not poisoned: a strategy that does its work only when the output looks
  // poisoned, or only when the inputs it glances at changed, leaves the last inputs' answer in
  // place. Every other check poisons first, and a strategy can see a poison. (A case without
  // inputs, a hello, has no new inputs to give, and its family watches a launch from its poison
  // on.)
  if (!test.has_inputs()) return KB_OK;
  // The same launch, timed as the samples were: the inputs changed in a few places, the work is
  // the same. Far slower than the timed launches, it did work they did not (an answer kept from an
  // earlier launch on the same inputs: a memo that checks every input, which no output check can
  // tell). Held as they were, since a launch enqueued on an idle stream may wait out another
  // process's time slice of the GPU (250 us and more on an H100 shared by four processes, every
  // time).
  //
  // A launch that follows the referee's work pays for it: another context ran on the GPU, the
  // inputs were rewritten from it, the host waited (an honest two-kernel reduction of 31 elements
  // took 2.3x its 17 us median so on an H200, a one-block reduction of 2^20 1.3x its 310 us). Past
  // the samples' limit, the launch is held against launches after the same round trip on inputs
  // the referee rewrote as they were, in pairs whose order only it knows and tells once each
  // launch is over: a kept answer is as slow as the work on new inputs and as fast as the samples
  // on old ones. A slow pair is tried again after a pause that doubles, so a hold-up of the host (a
  // busy CI machine, a virtual CPU descheduled) has passed by a later one.
  double samples_limit_us = changed_inputs_limit(samples, median_us, gain_us, penalty_us);
  if (!cuda()) {
    samples_limit_us =
        std::max(samples_limit_us, kHostChangedInputsRatio * median_us + kHostChangedInputsUs);
  } else if (host_share_timed()) {
    samples_limit_us =
        std::max(samples_limit_us, kPlainChangedInputsRatio * median_us + kPlainChangedInputsUs);
  }
  const double most_us = kChangedInputsFallback * median_us + kChangedInputsFallbackUs;
  std::optional<double> fastest_changed_us, fastest_same_us;
  double limit_us = samples_limit_us;
  int tries = 0;
  const auto near_launch = [&]() -> kb_status {
    if (const kb_status s = test.draw(KB_DRAW_NEAR, stream_, message)) return s;
    double launch_us = 0;
    if (const kb_status s = launch_as_sampled(launch_us)) return s;
    kb_verification unpoisoned{};
    std::optional<bool> changed;
    if (const kb_status s = judge(checks::kUnpoisonedLaunch, unpoisoned, &changed);
        s || failure.status) {
      return s;
    }
    ++tries;
    auto& fastest = changed.value_or(true) ? fastest_changed_us : fastest_same_us;
    fastest = std::min(fastest.value_or(launch_us), launch_us);
    return KB_OK;
  };
  if (const kb_status s = near_launch(); s || failure.status) return s;
  auto pause = kChangedInputsFirstPause;
  std::chrono::milliseconds paused{0};
  const auto within = [&] {
    return !(median_us > 0) || !fastest_changed_us || *fastest_changed_us <= limit_us;
  };
  for (int pair = 0; pair < kChangedInputsPairs && !within(); ++pair) {
    if (pair > 0) {
      std::this_thread::sleep_for(pause);
      paused += pause;
      pause *= 2;
    }
    for (int launch_of_pair = 0; launch_of_pair < 2; ++launch_of_pair) {
      if (const kb_status s = near_launch(); s || failure.status) return s;
    }
    if (fastest_same_us) {
      limit_us = std::max(samples_limit_us,
                          paired_changed_inputs_limit(samples, median_us, *fastest_same_us));
      if (cuda()) limit_us = std::min(limit_us, std::max(samples_limit_us, most_us));
    }
  }
  if (!within()) {
    std::string against = significant_text(limit_us) + " us allowed beside the samples";
    if (fastest_same_us) {
      against += "; on the inputs rewritten as they were, after the same round trip: " +
                 significant_text(*fastest_same_us) + " us";
    }
    failure = {KB_VERIFY_FAILED,
               "check 'changed inputs' failed: a launch right after the inputs changed in a few "
               "places took " + significant_text(*fastest_changed_us) + " us at the least of " +
                   std::to_string(tries) + " tries over " + std::to_string(paused.count()) +
                   " ms, " + significant_text(*fastest_changed_us / median_us) +
                   "x the median (" + against +
                   "): the timed launches did less than a launch on new inputs"};
    return KB_OK;
  }
  inputs_written("a launch");
  return KB_OK;
}

kb_status CaseTimer::self_checks(const LaunchOnce& launch, double median_us, kb_message& message,
                                 CaseOutcome& result, std::string& note) {
  if (!cuda() || options_.profile) return KB_OK;
  const bool back_to_back = !options_.cold && !(plugin_.flags & KB_FLAG_SYNCHRONIZES);
  if (back_to_back) {
    BatchTiming batch;
    if (const kb_status s = batch_timing(launch, stream_, *timer_, median_us, message, batch)) {
      return s;
    }
    result.batch_us = batch.launch_us;
    result.enqueue_us = batch.enqueue_us;
  }
  HostTiming host;
  if (const kb_status s = synchronised_host_timing(launch, stream_, median_us, message, host)) {
    return s;
  }
  result.host_us = host.launch_us;
  result.host_idle_us = host.idle_us;
  if (options_.energy_window_seconds > 0 && monitor_ && back_to_back) {
    std::optional<double> watts;
    if (const kb_status s = energy_window(launch, stream_, *monitor_,
                                          options_.energy_window_seconds, median_us, message,
                                          watts)) {
      return s;
    }
    if (watts) {
      result.power_w = *watts;
      result.energy_j = *watts * *result.batch_us * 1e-6;
    } else {
      append_note(note, "no energy: the board's energy counter did not move");
    }
  }
  return KB_OK;
}

kb_status CaseTimer::cupti_figures(const LaunchOnce& launch, double median_us,
                                   kb_message& message, CaseOutcome& result) {
  if (cupti_clock_) {
    const auto start = SteadyClock::now();
    const double at_least =
        std::clamp(std::floor(kCuptiLongestBatchUs / std::max(median_us, 0.1)), 1.0,
                   static_cast<double>(kCuptiMinLaunches));
    const int launches = static_cast<int>(
        std::clamp(std::ceil(kCuptiBatchUs / std::max(median_us, 0.1)), at_least,
                   static_cast<double>(kCuptiMaxLaunches)));
    std::optional<CuptiTiming> traced;
    if (const kb_status s =
            cupti_clock_->trace(launch, stream_, launches, flush_.get(), message, traced)) {
      return s;
    }
    if (traced) {
      result.cupti = CuptiFigures{traced->launch_us,  traced->stream_us,
                                  traced->busiest_us, traced->operations,
                                  traced->other_operations, kernel_names_text(traced->kernels),
                                  launches};
    } else {
      result.cupti_unavailable = cupti_clock_->why_not();
    }
    result.phases->cupti += seconds_since(start);
  }
  if (counters_) {
    const auto start = SteadyClock::now();
    std::optional<CounterReading> reading;
    if (const kb_status s = counters_->collect(launch, stream_, flush_.get(), message, reading)) {
      return s;
    }
    if (reading) {
      // The profiled range also holds the time before its kernels start, so the profiler's
      // DRAM percentage (of the range's elapsed time: 62% for the copy of 8192^2 floats on an
      // H100, whose kernel moves 90%) is taken again over the kernels' own time.
      const double kernel_us = result.cupti ? result.cupti->us : median_us;
      set_dram_throughput(reading->values, kernel_us, dram_gbps_);
      result.counters = counters_text(reading->values);
      result.counters_unavailable = counters_->refused();
    } else {
      result.counters_unavailable = counters_->why_not();
    }
    result.phases->counters += seconds_since(start);
  }
  return KB_OK;
}

void CaseTimer::read_device_state(const Sampling& sampling, CaseOutcome& result,
                                  std::string& note) {
  if (!monitor_) return;
  const GpuState gpu = monitor_->read();
  if (!gpu.known) return;
  const unsigned lowest =
      std::min(sampling.lowest_clock_mhz.value_or(gpu.sm_clock_mhz), gpu.sm_clock_mhz);
  result.device_state = DeviceState{lowest, gpu.temperature_c, gpu.throttle};
  const std::optional<unsigned> highest = monitor_->max_sm_clock_mhz();
  if (highest && lowest < kThrottledClock * *highest) {
    append_note(note, "throttled: the SM clock fell to " + std::to_string(lowest) +
                          " MHz during sampling (its maximum is " + std::to_string(*highest) +
                          " MHz)");
  }
}

kb_status CaseTimer::warm_up(CaseUnderTest& test, const LaunchOnce& launch, kb_message& message,
                             double& warm_up_us, const char*& stage) {
  // Poisoned first, as every launch whose output is compared: a family may record an output only
  // from its poison on (hello's transcript), and the warm-up's output can be the one a slow
  // case's checked sample is held to (run_unguarded).
  stage = "poison";
  if (const kb_status s = test.poison(stream_, message)) return s;
  if (cuda()) {
    if (const kb_status s = from_cuda(cudaStreamSynchronize(stream_), message, "poison")) return s;
  }
  stage = "launch";
  if (const kb_status s = before_launch(test, message)) return s;
  const auto start = SteadyClock::now();
  if (const kb_status s = launch(stream_)) return s;
  if (cuda()) {
    if (const kb_status s = from_cuda(cudaDeviceSynchronize(), message, "warm-up")) return s;
  }
  warm_up_us = seconds_since(start) * 1e6;
  return KB_OK;
}

kb_status CaseTimer::other_clocks(const LaunchOnce& launch, const Sampling& sampling,
                                  double median_us, kb_message& message, CaseOutcome& result,
                                  std::string& note) {
  // The allowance of the launch accounting (judge/plausibility.hpp): a sample of several launches
  // against a launch alone, on a kernel of kbench's own of about the same length.
  if (sampling.held && sampling.launches > 1 && !sampling.single_us.empty()) {
    const double alone_us = *std::min_element(sampling.single_us.begin(), sampling.single_us.end());
    result.launch_gain_us =
        back_to_back_gain_us(stream_, *timer_, *blocker_, alone_us, sampling.launches);
  }
  if (const kb_status s = self_checks(launch, median_us, message, result, note)) return s;
  if (cuda()) {
    if (const kb_status s = cupti_figures(launch, median_us, message, result)) return s;
  }
  read_device_state(sampling, result, note);
  return KB_OK;
}

void CaseTimer::count_captured_operations(CaseUnderTest& test, CaseOutcome& result) {
  // Last, so nothing it may leave behind touches the verified output: does the launch put its
  // work on the stream it is given? (A plugin that synchronises cannot be captured.)
  if (!holds_stream()) return;
  kb_message ignored{};
  const LaunchOnce captured = [&](cudaStream_t stream) { return test.launch(stream, ignored); };
  if (const long long operations = captured_operations(captured, stream_); operations >= 0) {
    result.captured_operations = operations;
  }
}

void CaseTimer::record_sampling(const Sampling& sampling, const kb_launch_config& config,
                                const kb_verification& figures, CaseOutcome& result) const {
  if (!sampling.samples.empty()) {
    const SampleStats stats = summarize(sampling.samples);
    result.samples = SampleSummary{static_cast<long long>(stats.count), stats.median, stats.min,
                                   stats.mean,   stats.stddev, stats.noise, sampling.settled};
  }
  if (options_.keep_samples) result.sample_list = sampling.samples;
  if (!sampling.poisoned_us.empty()) result.poisoned_us = summarize(sampling.poisoned_us).min;
  if (!sampling.single_us.empty()) result.single_us = summarize(sampling.single_us).min;
  result.launch = LaunchShape{{config.grid[0], config.grid[1], config.grid[2]},
                              {config.block[0], config.block[1], config.block[2]},
                              config.kernels};
  result.verification =
      VerificationFigures{figures.max_rel_error, figures.tolerance, plugin_text(figures.metrics)};
}

CaseOutcome CaseTimer::run_unguarded(const CaseRequest& request) {
  CaseOutcome result;
  kb_message message{};
  // Where the case's wall time goes, for the sweep's closing summary (not CSV columns).
  result.phases.emplace();
  PhaseClock phases(*result.phases);
  CaseSetup made =
      refereed()
          ? RemoteRefereedCase::set_up(plugin_, *referee_, kept_mappings_, request, output_fd_)
          : set_up_self_refereed(plugin_, family_, request);
  std::unique_ptr<CaseUnderTest> test = std::move(made.test);
  const auto finish = [&](kb_status status, const char* stage) {
    test.reset();
    phases.end_all();
    // A launch that says its case failed verification judges itself, which only a check may:
    // an error of the launch, with the words it said (a verify_failed row without a check's
    // message would read as the referee's verdict).
    if (status == KB_VERIFY_FAILED && std::string_view(stage) == "launch") {
      status = KB_ERROR;
      const std::string said = plugin_text(message.text);
      std::snprintf(message.text, sizeof message.text, "returned KB_VERIFY_FAILED, which only a "
                    "check returns%s%s", said.empty() ? "" : ": ", said.c_str());
    }
    result.status = status_of(status);
    if (status != KB_OK && status != KB_VERIFY_FAILED) {
      result.message = std::string(stage) + ": " + plugin_text(message.text);
      result.context_lost = cuda() && cuda_context_lost();
    }
    return result;
  };
  if (made.status != KB_OK) {
    message = made.message;
    return finish(made.status, made.stage);
  }
  kb_status status = KB_OK;
  // setup's uploads from pageable memory may still be in flight on the legacy stream, which
  // the runner's non-blocking stream does not wait for.
  if (cuda() && (status = from_cuda(cudaDeviceSynchronize(), message, "after setup")) != KB_OK) {
    return finish(status, "setup");
  }
  const kb_work work = test->work();
  result.bytes = work.bytes;
  result.flops = work.flops;
  phases.end();

  const LaunchOnce launch = [&](cudaStream_t stream) { return test->launch(stream, message); };
  // Warm-up, with the stream not held: whatever a first launch does (load a lazily loaded module,
  // create a library's handle or plan, touch pages) waits for the device, so it must not happen
  // behind the blocking kernel.
  double warm_up_us = 0;
  const char* stage = "launch";
  if (!options_.profile &&
      (status = warm_up(*test, launch, message, warm_up_us, stage)) != KB_OK) {
    return finish(status, stage);
  }

  Sampling sampling;
  sampling.slow = warm_up_us >= kSlowLaunchUs;
  Failure failure;
  if (!cuda() && warm_up_us >= kHostWarmUpSampleUs) {
    // A host launch this long is timed by its warm-up as by a sample (the same clock, the poison
    // before it): the warm-up is checked and is the first sample.
    sampling.poisoned_us.push_back(warm_up_us);
    if ((status = judge_checked_launch(*test, message, sampling, failure)) != KB_OK) {
      return finish(status, sampling.failed_stage);
    }
    if (failure.status == KB_OK) sampling.samples.push_back(warm_up_us);
  } else if (sampling.slow) {
    // A slow case may take its checked sample alone: the warm-up's output is then the other
    // launch on the same inputs that the checked one must match bit for bit.
    same_output(*test, sampling, failure);
  }
  const std::string range = std::string(plugin_.name) + " | " + describe(request);
  // Which samples are checked, and the verdict's inputs: from a secret of the case, not from its
  // public seed (secret_seed()).
  const std::uint64_t check_seed = secret_seed(request.seed);
  if (failure.status == KB_OK &&
      (status = sample(*test, launch, range, check_seed, message, sampling, failure)) != KB_OK) {
    return finish(status, sampling.failed_stage);
  }
  std::string note = sampling.note;
  const double median_us = summarize(sampling.samples).median;
  if (failure.status == KB_OK) {
    result.timing = !cuda()            ? TimingMethod::host
                    : options_.profile ? TimingMethod::profile
                    : sampling.held    ? TimingMethod::held
                                       : TimingMethod::plain;
    result.sample_launches = sampling.launches;
    if ((status = other_clocks(launch, sampling, median_us, message, result, note)) != KB_OK) {
      return finish(status, "launch");
    }
  }
  phases.end();

  kb_verification figures{};
  if (failure.status == KB_OK &&
      (status = verdict(*test, launch, median_us, sampling.samples,
                        result.launch_gain_us.value_or(0), referee_penalty_us(sampling, median_us),
                        sampling.held, message, figures, failure)) != KB_OK) {
    return finish(status, "verify");
  }
  if (sampling.figures && refereed()) figures = *sampling.figures;
  if (failure.status == KB_OK) count_captured_operations(*test, result);
  record_sampling(sampling, test->config(), figures, result);
  if (failure.status != KB_OK) {
    result.message = failure.message;
    message = kb_message{};
    return finish(failure.status, "verify");
  }
  append_note(note, test->work_note());
  result.message = note;
  return finish(KB_OK, "verify");
}

}  // namespace kb
