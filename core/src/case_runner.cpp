#include "case_runner.hpp"

#include "device_info.hpp"
#include "plugin_text.hpp"

#include <kbench/support/error.hpp>

#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

namespace kb {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Six significant digits for measurements; counts (bytes, flops) exactly.
std::string number(double value, int digits = 6) {
  if (!std::isfinite(value)) return value > 0 ? "inf" : "nan";
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

kb_status from_cuda(cudaError_t error, kb_message& message, const char* what) {
  if (error == cudaSuccess) return KB_OK;
  std::snprintf(message.text, sizeof message.text, "%s: %s: %s", what, cudaGetErrorName(error),
                cudaGetErrorString(error));
  return status_of(error);
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

constexpr double kSampleTargetUs = 200;
constexpr int kMaxLaunchesPerSample = 256;

double least_squares_slope(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double mean_x = 0, mean_y = 0;
  for (std::size_t i = 0; i < x.size(); ++i) mean_x += x[i] / n, mean_y += y[i] / n;
  double covariance = 0, variance = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    covariance += (x[i] - mean_x) * (y[i] - mean_y);
    variance += (x[i] - mean_x) * (x[i] - mean_x);
  }
  return covariance / variance;
}

// verify said KB_OK, but its own figures say otherwise: passed = 0, a NaN error, or an error over
// the tolerance it names. Empty when they agree.
std::string verification_contradiction(kb_status status, const kb_verification& check) {
  if (status != KB_OK) return "";
  if (!check.passed) return "verify returned KB_OK with passed = 0";
  if (std::isnan(check.max_rel_error)) return "verify passed a NaN error";
  if (check.tolerance > 0 && check.max_rel_error > check.tolerance) {
    return "verify passed a max relative error " + number(check.max_rel_error) +
           " over its tolerance " + number(check.tolerance);
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
  KB_CUDA_CHECK(cudaEventCreate(&start_));
  KB_CUDA_CHECK(cudaEventCreate(&stop_));
  // A profiler serialises every kernel, so in --profile mode the spinning kernel would only wait
  // out its timeout.
  if (holds_stream()) blocker_ = std::make_unique<BlockingKernel>();
  monitor_ = std::make_unique<GpuMonitor>(device_uuid(device));
  if (options_.cold) {
    flush_size_ = flush_bytes(device);
    KB_CUDA_CHECK(cudaMalloc(&flush_buffer_, flush_size_));
  }
}

std::size_t CaseRunner::flush_bytes(int device) {
  int l2 = 0;
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
  return std::max<std::size_t>(2 * static_cast<std::size_t>(l2), std::size_t{64} << 20);
}

CaseRunner::~CaseRunner() {
  if (!cuda()) return;
  cudaFree(flush_buffer_);
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
  cudaStreamDestroy(stream_);
}

kb_status CaseRunner::synchronize(kb_message& message) {
  if (!cuda()) return KB_OK;
  return from_cuda(cudaStreamSynchronize(stream_), message, "synchronising after launch");
}

kb_status CaseRunner::timed_launch(void* state, kb_launch_config& config, kb_message& message,
                                   bool hold, int launches, double& microseconds,
                                   bool& hold_timed_out) {
  hold_timed_out = false;
  if (!cuda()) {
    const auto start = Clock::now();
    const kb_status status = plugin_.launch(state, nullptr, &config, &message);
    microseconds = seconds_since(start) * 1e6;
    return status;
  }
  if (flush_buffer_ != nullptr) {
    // Outside the timed region: evicts the inputs from L2 (writes of a buffer twice its size).
    KB_CUDA_CHECK(cudaMemsetAsync(flush_buffer_, ++flush_value_, flush_size_, stream_));
  }
  if (hold) blocker_->block(stream_);
  cudaEventRecord(start_, stream_);
  kb_status status = KB_OK;
  for (int i = 0; i < launches && status == KB_OK; ++i) {
    status = plugin_.launch(state, stream_, &config, &message);
  }
  cudaEventRecord(stop_, stream_);
  if (hold) blocker_->release();
  if (status != KB_OK) return status;
  if (const kb_status s = from_cuda(cudaEventSynchronize(stop_), message, "timed launch"); s) {
    return s;
  }
  hold_timed_out = hold && blocker_->timed_out();
  float ms = 0;
  cudaEventElapsedTime(&ms, start_, stop_);
  microseconds = ms * 1e3 / launches;
  return KB_OK;
}

kb_status CaseRunner::batch_launch(void* state, kb_launch_config& config, kb_message& message,
                                   double expected_us, BatchTiming& timing) {
  // Enough back-to-back launches for about 2 ms, so the gaps between kernels (launch overhead)
  // are part of the figure, unlike in the samples; the median of three such batches, so one
  // disturbed batch does not make the row's self-check cry wolf.
  const int count = static_cast<int>(std::clamp(2000.0 / std::max(expected_us, 0.1), 1.0, 1000.0));
  std::vector<double> per_launch, enqueue;
  for (int batch = 0; batch < 3; ++batch) {
    const auto start = Clock::now();
    cudaEventRecord(start_, stream_);
    for (int i = 0; i < count; ++i) {
      if (const kb_status status = plugin_.launch(state, stream_, &config, &message); status) {
        return status;
      }
    }
    cudaEventRecord(stop_, stream_);
    enqueue.push_back(seconds_since(start) * 1e6 / count);
    if (const kb_status s = from_cuda(cudaEventSynchronize(stop_), message, "batch launch"); s) {
      return s;
    }
    float ms = 0;
    cudaEventElapsedTime(&ms, start_, stop_);
    per_launch.push_back(ms * 1e3 / count);
  }
  timing = {summarize(per_launch).median, summarize(enqueue).median};
  return KB_OK;
}

kb_status CaseRunner::synchronised_host_time(void* state, kb_launch_config& config,
                                             kb_message& message, double expected_us,
                                             HostTiming& timing) {
  // What a user's host clock sees (nvbench's CPU time): the launch, the kernel, and the wait for
  // the whole device, so work the plugin put on another stream is counted too. Beside it, the
  // same for an empty kernel: what waking up from a synchronise costs on this host now (a busy
  // host makes both slow). The least of a few of each: anything else only ever adds.
  const int count = static_cast<int>(std::clamp(20000.0 / std::max(expected_us, 1.0), 3.0, 5.0));
  std::vector<double> launches, idle;
  for (int i = 0; i < count; ++i) {
    auto start = Clock::now();
    launch_empty_kernel(stream_);
    if (const kb_status s = from_cuda(cudaDeviceSynchronize(), message, "empty launch"); s) {
      return s;
    }
    idle.push_back(seconds_since(start) * 1e6);
    start = Clock::now();
    if (const kb_status status = plugin_.launch(state, stream_, &config, &message); status) {
      return status;
    }
    if (const kb_status s = from_cuda(cudaDeviceSynchronize(), message, "synchronised launch"); s) {
      return s;
    }
    launches.push_back(seconds_since(start) * 1e6);
  }
  timing = {summarize(launches).min, summarize(idle).min};
  return KB_OK;
}

kb_status CaseRunner::energy_window(void* state, kb_launch_config& config, kb_message& message,
                                    double expected_us, std::optional<double>& watts) {
  // Launches back to back in chunks of about 2 ms, at most three chunks queued, so the GPU never
  // idles while the host reads the counter between chunks. The counter moves in steps (every
  // 100 ms on an H100); each step is timed within a chunk, and the power is the least-squares
  // slope of energy against time over every step of the window: the counter's resolution and the
  // driver's jitter in publishing a step average out.
  const int chunk = static_cast<int>(std::clamp(2000.0 / std::max(expected_us, 0.1), 1.0, 1000.0));
  const double settle = 0.2, length = options_.energy_window_seconds;
  const double give_up = settle + 3 * length + 1;
  std::vector<cudaEvent_t> queued;
  std::vector<double> times, joules;
  std::optional<double> last_seen;
  const auto start = Clock::now();
  kb_status status = KB_OK;
  while (status == KB_OK && seconds_since(start) < give_up &&
         (times.empty() || times.back() - times.front() < length)) {
    for (int i = 0; i < chunk && status == KB_OK; ++i) {
      status = plugin_.launch(state, stream_, &config, &message);
    }
    cudaEvent_t done = nullptr;
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    cudaEventRecord(done, stream_);
    queued.push_back(done);
    if (queued.size() >= 3) {
      status = from_cuda(cudaEventSynchronize(queued.front()), message, "energy window");
      cudaEventDestroy(queued.front());
      queued.erase(queued.begin());
    }
    const std::optional<double> counter = monitor_->energy_joules();
    const double now = seconds_since(start);
    if (!counter) break;
    const bool stepped = last_seen && *counter != *last_seen;
    last_seen = counter;
    if (stepped && now >= settle) times.push_back(now), joules.push_back(*counter);
  }
  for (cudaEvent_t e : queued) {
    if (status == KB_OK) status = from_cuda(cudaEventSynchronize(e), message, "energy window");
    cudaEventDestroy(e);
  }
  if (status == KB_OK && times.size() >= 3 && times.back() - times.front() >= length) {
    watts = least_squares_slope(times, joules);
  }
  return status;
}

long long CaseRunner::captured_operations(void* state, kb_launch_config& config) {
  // Relaxed mode: work the plugin sends elsewhere runs as usual instead of failing the capture.
  if (cudaStreamBeginCapture(stream_, cudaStreamCaptureModeRelaxed) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  kb_message ignored{};
  const kb_status status = plugin_.launch(state, stream_, &config, &ignored);
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream_, &graph);
  std::size_t nodes = 0;
  const bool counted = status == KB_OK && ended == cudaSuccess && graph != nullptr &&
                       cudaGraphGetNodes(graph, nullptr, &nodes) == cudaSuccess;
  if (graph != nullptr) cudaGraphDestroy(graph);
  cudaGetLastError();  // a launch that cannot be captured (it synchronises) leaves its error here
  return counted ? static_cast<long long>(nodes) : -1;
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

CaseOutcome CaseRunner::run_unguarded(const CaseRequest& request) {
  CaseOutcome result;
  const kb_case c = request.to_abi();
  kb_message message{};
  kb_work work{};
  kb_launch_config config{};
  void* state = nullptr;
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
    if ((status = plugin_.launch(state, stream_, &config, &message)) != KB_OK) {
      return finish(status, "launch");
    }
    if (cuda() && (status = from_cuda(cudaDeviceSynchronize(), message, "warm-up")) != KB_OK) {
      return finish(status, "launch");
    }
  }

  const std::string range = std::string(plugin_.name) + " | " + describe(request);
  bool hold = holds_stream();
  std::string timing_note;
  if (cuda() && options_.hide_launch_latency && (plugin_.flags & KB_FLAG_SYNCHRONIZES)) {
    timing_note = "timed without latency hiding: the plugin synchronises in launch "
                  "(KB_FLAG_SYNCHRONIZES)";
  }
  // How many launches a held sample holds: enough for kSampleTargetUs, so the GPU's own cost of
  // starting a lone launch after the hold (1-3 us on Hopper, which back-to-back launches overlap
  // with the kernel before) is a small part of each sample. One when each launch must be alone
  // (cold cache, a profiler) or when the launch latency is part of the figure anyway.
  int launches = 1;
  if (hold && !options_.cold) {
    double probe_us = 0;
    bool hold_timed_out = false;
    if ((status = timed_launch(state, config, message, hold, 1, probe_us, hold_timed_out)) !=
        KB_OK) {
      return finish(status, "launch");
    }
    if (!hold_timed_out) {
      launches = static_cast<int>(
          std::clamp(std::ceil(kSampleTargetUs / std::max(probe_us, 0.1)), 1.0,
                     static_cast<double>(kMaxLaunchesPerSample)));
    }
  }
  // The SM clock, read between samples every kClockReadSeconds (as nvbench watches for
  // throttling): the lowest reading is the row's clock.
  std::optional<unsigned> lowest_clock;
  auto clock_read_at = Clock::now() - std::chrono::seconds(1);
  const auto read_clock = [&] {
    if (!monitor_ || seconds_since(clock_read_at) < kClockReadSeconds) return;
    clock_read_at = Clock::now();
    if (const auto mhz = monitor_->sm_clock_mhz()) {
      lowest_clock = std::min(lowest_clock.value_or(*mhz), *mhz);
    }
  };
  int void_in_a_row = 0;
  std::vector<double> samples;
  const auto start = Clock::now();
  StoppingRule::Verdict verdict = StoppingRule::Verdict::more;
  while (verdict == StoppingRule::Verdict::more) {
    double us = 0;
    bool hold_timed_out = false;
    nvtxRangePushA(range.c_str());
    status = timed_launch(state, config, message, hold, hold ? launches : 1, us, hold_timed_out);
    nvtxRangePop();
    if (status != KB_OK) return finish(status, "launch");
    if (hold_timed_out) {
      // The launch waited for the device while the stream was held, so the sample holds the
      // blocking kernel's timeout: void, taken again. Twice in a row means the launch always
      // waits; this case alone is then timed without the hold, and its row says so.
      if (++void_in_a_row == kVoidSamplesBeforeUnheld) {
        hold = false;
        timing_note = "timed without latency hiding: the launch waited for the device while the "
                      "stream was held (" + std::to_string(kVoidSamplesBeforeUnheld) +
                      " samples in a row)";
      }
      continue;
    }
    void_in_a_row = 0;
    samples.push_back(us);
    read_clock();
    verdict = options_.profile ? StoppingRule::Verdict::out_of_time
                               : options_.rule.judge(samples, seconds_since(start));
  }
  const SampleStats stats = summarize(samples);
  result.timing = !cuda()            ? TimingMethod::host
                  : options_.profile ? TimingMethod::profile
                  : hold             ? TimingMethod::held
                                     : TimingMethod::plain;
  result.sample_launches = hold ? launches : 1;
  if (cuda() && !options_.profile) {
    if (!options_.cold && !(plugin_.flags & KB_FLAG_SYNCHRONIZES)) {
      BatchTiming batch;
      if ((status = batch_launch(state, config, message, stats.median, batch)) != KB_OK) {
        return finish(status, "launch");
      }
      result.batch_us = batch.launch_us;
      result.enqueue_us = batch.enqueue_us;
    }
    HostTiming host;
    if ((status = synchronised_host_time(state, config, message, stats.median, host)) != KB_OK) {
      return finish(status, "launch");
    }
    result.host_us = host.launch_us;
    result.host_idle_us = host.idle_us;
    if (options_.energy_window_seconds > 0 && monitor_ && !options_.cold &&
        !(plugin_.flags & KB_FLAG_SYNCHRONIZES) && result.batch_us) {
      std::optional<double> watts;
      if ((status = energy_window(state, config, message, stats.median, watts)) != KB_OK) {
        return finish(status, "launch");
      }
      if (watts) {
        result.power_w = *watts;
        result.energy_j = *watts * *result.batch_us * 1e-6;
      } else {
        timing_note += std::string(timing_note.empty() ? "" : "; ") +
                       "no energy: the board's energy counter did not move";
      }
    }
  }
  if (monitor_) {
    const GpuState gpu = monitor_->read();
    if (gpu.known) {
      const unsigned lowest = std::min(lowest_clock.value_or(gpu.sm_clock_mhz), gpu.sm_clock_mhz);
      result.device_state = DeviceState{lowest, gpu.temperature_c, gpu.throttle};
      const std::optional<unsigned> highest = monitor_->max_sm_clock_mhz();
      if (highest && lowest < kThrottledClock * *highest) {
        timing_note += std::string(timing_note.empty() ? "" : "; ") + "throttled: the SM clock " +
                       "fell to " + std::to_string(lowest) + " MHz during sampling (its maximum " +
                       "is " + std::to_string(*highest) + " MHz)";
      }
    }
  }

  end_phase();

  if ((status = plugin_.poison(state, stream_, &message)) != KB_OK) return finish(status, "poison");
  if ((status = plugin_.launch(state, stream_, &config, &message)) != KB_OK) {
    return finish(status, "launch");
  }
  if ((status = synchronize(message)) != KB_OK) return finish(status, "launch");
  kb_verification check{};
  status = plugin_.verify(state, &check, &message);
  if (status != KB_OK && status != KB_VERIFY_FAILED) return finish(status, "verify");
  const std::string contradiction = verification_contradiction(status, check);
  if (!contradiction.empty()) status = KB_VERIFY_FAILED;

  // Last, so nothing it may leave behind touches the verified output: does the launch put its
  // work on the stream it is given? (A plugin that synchronises cannot be captured.)
  if (holds_stream()) {
    if (const long long operations = captured_operations(state, config); operations >= 0) {
      result.captured_operations = operations;
    }
  }

  result.samples = SampleSummary{static_cast<long long>(stats.count), stats.median, stats.min,
                                 stats.mean,   stats.stddev, stats.noise,
                                 verdict == StoppingRule::Verdict::settled};
  if (options_.keep_samples) result.sample_list = samples;
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
      why += ": max relative error " + number(check.max_rel_error) + " over tolerance " +
             number(check.tolerance);
    }
    const std::string detail = plugin_text(message.text);
    result.message = detail.empty() ? why : why + "; " + detail;
  } else if (!timing_note.empty()) {
    result.message = timing_note;
  }
  return finish(status, "verify");
}

double measure_copy_gbps(int device) {
  KB_CUDA_CHECK(cudaSetDevice(device));
  // Large against any L2 (H100: 50 MB), small against any device memory.
  constexpr std::size_t kBytes = std::size_t{512} << 20;
  void *from = nullptr, *to = nullptr;
  KB_CUDA_CHECK(cudaMalloc(&from, kBytes));
  if (cudaMalloc(&to, kBytes) != cudaSuccess) {
    cudaFree(from);
    return 0;
  }
  cudaMemset(from, 1, kBytes);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<double> samples;
  for (int i = 0; i < 22; ++i) {
    cudaEventRecord(start);
    cudaMemcpyAsync(to, from, kBytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    if (i >= 2) samples.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(from);
  cudaFree(to);
  return 2.0 * kBytes / (summarize(samples).median * 1e-3) / 1e9;
}

}  // namespace kb
