#include "measure/case_runner.hpp"

#include "device/device_info.hpp"
#include "measure/energy_window.hpp"
#include "measure/self_checks.hpp"
#include "util/number_text.hpp"
#include "util/plugin_text.hpp"

#include <kbench/support/error.hpp>

#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace kb {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

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

// How many launches a held sample holds: enough for kSampleTargetUs, so the GPU's own cost of
// starting a lone launch after the hold (1-3 us on Hopper, which back-to-back launches overlap
// with the kernel before) is a small part of each sample.
constexpr double kSampleTargetUs = 200;
constexpr int kMaxLaunchesPerSample = 256;

void append_note(std::string& notes, const std::string& note) {
  notes += (notes.empty() ? "" : "; ") + note;
}

// verify said KB_OK, but its own figures say otherwise: passed = 0, a NaN error, or an error over
// the tolerance it names. Empty when they agree.
std::string verification_contradiction(kb_status status, const kb_verification& check) {
  if (status != KB_OK) return "";
  if (!check.passed) return "verify returned KB_OK with passed = 0";
  if (std::isnan(check.max_rel_error)) return "verify passed a NaN error";
  if (check.tolerance > 0 && check.max_rel_error > check.tolerance) {
    return "verify passed a max relative error " + significant_text(check.max_rel_error) +
           " over its tolerance " + significant_text(check.tolerance);
  }
  return "";
}

std::string describe(const CaseRequest& r) {
  std::string text = std::string(dtype_name(r.dtype)) + " ";
  if (!r.op.empty()) text += r.op + " ";
  return text + format_extent(r.shape) + " " + format_block(r.block);
}

}  // namespace

CaseRunner::CaseRunner(const KernelPlugin& plugin, int device, TimingOptions options)
    : plugin_(plugin), options_(options) {
  if (!cuda()) return;
  KB_CUDA_CHECK(cudaSetDevice(device));
  KB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  timer_ = std::make_unique<CudaTimer>();
  // A profiler serialises every kernel, so in --profile mode the spinning kernel would only wait
  // out its timeout.
  if (holds_stream()) blocker_ = std::make_unique<BlockingKernel>();
  monitor_ = std::make_unique<GpuMonitor>(device_uuid(device));
  if (options_.cold) flush_ = std::make_unique<L2Flush>(device);
}

CaseRunner::~CaseRunner() {
  if (stream_ != nullptr) cudaStreamDestroy(stream_);
}

CaseOutcome CaseRunner::run(const CaseRequest& request) {
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

kb_status CaseRunner::timed_launches(const LaunchOnce& launch, bool hold, int launches,
                                     kb_message& message, double& microseconds,
                                     bool& hold_timed_out) {
  hold_timed_out = false;
  if (!cuda()) {
    const auto start = Clock::now();
    const kb_status status = launch(nullptr);
    microseconds = seconds_since(start) * 1e6;
    return status;
  }
  // Outside the timed region: evicts the inputs from L2.
  if (flush_) flush_->flush(stream_);
  if (hold) blocker_->block(stream_);
  timer_->start(stream_);
  kb_status status = KB_OK;
  for (int i = 0; i < launches && status == KB_OK; ++i) status = launch(stream_);
  timer_->stop(stream_);
  if (hold) blocker_->release();
  if (status != KB_OK) return status;
  if (const kb_status s = from_cuda(timer_->wait(), message, "timed launch"); s) return s;
  hold_timed_out = hold && blocker_->timed_out();
  microseconds = timer_->elapsed_us() / launches;
  return KB_OK;
}

kb_status CaseRunner::sample(const LaunchOnce& launch, const std::string& range,
                             kb_message& message, Sampling& sampling) {
  sampling.held = holds_stream();
  if (cuda() && options_.hide_launch_latency && (plugin_.flags & KB_FLAG_SYNCHRONIZES)) {
    sampling.note = "timed without latency hiding: the plugin synchronises in launch "
                    "(KB_FLAG_SYNCHRONIZES)";
  }
  // One launch per sample when each launch must be alone (cold cache, a profiler) or when the
  // launch latency is part of the figure anyway.
  if (sampling.held && !options_.cold) {
    double probe_us = 0;
    bool hold_timed_out = false;
    if (const kb_status s = timed_launches(launch, true, 1, message, probe_us, hold_timed_out)) {
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
  auto clock_read_at = Clock::now() - std::chrono::seconds(1);
  const auto read_clock = [&] {
    if (!monitor_ || seconds_since(clock_read_at) < kClockReadSeconds) return;
    clock_read_at = Clock::now();
    if (const auto mhz = monitor_->sm_clock_mhz()) {
      sampling.lowest_clock_mhz = std::min(sampling.lowest_clock_mhz.value_or(*mhz), *mhz);
    }
  };
  int void_in_a_row = 0;
  const auto start = Clock::now();
  StoppingRule::Verdict verdict = StoppingRule::Verdict::more;
  while (verdict == StoppingRule::Verdict::more) {
    double us = 0;
    bool hold_timed_out = false;
    nvtxRangePushA(range.c_str());
    const kb_status status =
        timed_launches(launch, sampling.held, sampling.held ? sampling.launches : 1, message, us,
                       hold_timed_out);
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
    sampling.samples.push_back(us);
    read_clock();
    verdict = options_.profile ? StoppingRule::Verdict::out_of_time
                               : options_.rule.judge(sampling.samples, seconds_since(start));
  }
  sampling.settled = verdict == StoppingRule::Verdict::settled;
  if (!sampling.held) sampling.launches = 1;
  return KB_OK;
}

kb_status CaseRunner::self_checks(const LaunchOnce& launch, double median_us, kb_message& message,
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

void CaseRunner::read_device_state(const Sampling& sampling, CaseOutcome& result,
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

CaseOutcome CaseRunner::run_unguarded(const CaseRequest& request) {
  CaseOutcome result;
  const kb_case c = request.to_abi();
  kb_message message{};
  kb_work work{};
  kb_launch_config config{};
  void* state = nullptr;
  const LaunchOnce launch = [&](cudaStream_t stream) {
    return plugin_.launch(state, stream, &config, &message);
  };
  // Where the case's wall time goes, for the sweep's closing summary (not CSV columns).
  result.phases.emplace();
  double* const phases[] = {&result.phases->setup, &result.phases->timing, &result.phases->verify};
  std::size_t phase = 0;
  auto phase_start = Clock::now();
  const auto end_phase = [&] {
    *phases[phase++] = seconds_since(phase_start);
    phase_start = Clock::now();
  };
  const auto finish = [&](kb_status status, const char* stage) {
    if (state != nullptr) plugin_.teardown(state);
    end_phase();
    result.status = status_of(status);
    if (status != KB_OK && status != KB_VERIFY_FAILED) {
      result.message = std::string(stage) + ": " + plugin_text(message.text);
      result.context_lost = cuda() && cuda_context_lost();
    }
    return result;
  };

  kb_status status = plugin_.setup(&c, &state, &work, &message);
  if (status != KB_OK) {
    state = nullptr;  // a failed setup leaves nothing allocated
    return finish(status, "setup");
  }
  // setup's uploads from pageable memory may still be in flight on the legacy stream, which
  // the runner's non-blocking stream does not wait for.
  if (cuda() && (status = from_cuda(cudaDeviceSynchronize(), message, "after setup")) != KB_OK) {
    return finish(status, "setup");
  }
  result.bytes = work.bytes;
  result.flops = work.flops;
  end_phase();

  // Warm-up, with the stream not held: whatever a first launch does (load a lazily loaded module,
  // create a library's handle or plan, touch pages) waits for the device, so it must not happen
  // behind the blocking kernel.
  if (!options_.profile) {
    if ((status = launch(stream_)) != KB_OK) return finish(status, "launch");
    if (cuda() && (status = from_cuda(cudaDeviceSynchronize(), message, "warm-up")) != KB_OK) {
      return finish(status, "launch");
    }
  }

  Sampling sampling;
  const std::string range = std::string(plugin_.name) + " | " + describe(request);
  if ((status = sample(launch, range, message, sampling)) != KB_OK) {
    return finish(status, "launch");
  }
  const SampleStats stats = summarize(sampling.samples);
  result.timing = !cuda()            ? TimingMethod::host
                  : options_.profile ? TimingMethod::profile
                  : sampling.held    ? TimingMethod::held
                                     : TimingMethod::plain;
  result.sample_launches = sampling.launches;
  std::string note = sampling.note;
  if ((status = self_checks(launch, stats.median, message, result, note)) != KB_OK) {
    return finish(status, "launch");
  }
  read_device_state(sampling, result, note);
  end_phase();

  if ((status = plugin_.poison(state, stream_, &message)) != KB_OK) return finish(status, "poison");
  if ((status = launch(stream_)) != KB_OK) return finish(status, "launch");
  if (cuda() && (status = from_cuda(cudaStreamSynchronize(stream_), message,
                                    "synchronising after launch")) != KB_OK) {
    return finish(status, "launch");
  }
  kb_verification check{};
  status = plugin_.verify(state, &check, &message);
  if (status != KB_OK && status != KB_VERIFY_FAILED) return finish(status, "verify");
  const std::string contradiction = verification_contradiction(status, check);
  if (!contradiction.empty()) status = KB_VERIFY_FAILED;

  // Last, so nothing it may leave behind touches the verified output: does the launch put its
  // work on the stream it is given? (A plugin that synchronises cannot be captured.)
  if (holds_stream()) {
    kb_message ignored{};
    const LaunchOnce captured = [&](cudaStream_t stream) {
      return plugin_.launch(state, stream, &config, &ignored);
    };
    if (const long long operations = captured_operations(captured, stream_); operations >= 0) {
      result.captured_operations = operations;
    }
  }

  result.samples = SampleSummary{static_cast<long long>(stats.count), stats.median, stats.min,
                                 stats.mean,   stats.stddev, stats.noise, sampling.settled};
  if (options_.keep_samples) result.sample_list = sampling.samples;
  result.launch = LaunchShape{{config.grid[0], config.grid[1], config.grid[2]},
                              {config.block[0], config.block[1], config.block[2]},
                              config.kernels};
  result.verification =
      VerificationFigures{check.max_rel_error, check.tolerance, plugin_text(check.metrics)};
  if (status == KB_VERIFY_FAILED) {
    std::string why = "verification failed";
    if (!contradiction.empty()) {
      why += ": " + contradiction;
    } else if (check.tolerance > 0 || check.max_rel_error > 0) {
      why += ": max relative error " + significant_text(check.max_rel_error) +
             " over tolerance " + significant_text(check.tolerance);
    }
    const std::string detail = plugin_text(message.text);
    result.message = detail.empty() ? why : why + "; " + detail;
  } else {
    result.message = note;
  }
  return finish(status, "verify");
}

}  // namespace kb
