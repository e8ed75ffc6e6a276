// Runs the cases of one plugin inside a worker: set-up (by the family for a version 3 strategy),
// warm-up, timed launches until the stopping rule is satisfied with a few of them checked, the
// self-checks, the verdict, teardown. Produces the case's outcome; the parent decides its final
// status (judge/plausibility.hpp).
#pragma once

#include "case/case_outcome.hpp"
#include "case/case_request.hpp"
#include "device/gpu_monitor.hpp"
#include "measure/blocking_kernel.hpp"
#include "measure/case_under_test.hpp"
#include "measure/counter_profiler.hpp"
#include "measure/cuda_timer.hpp"
#include "measure/cupti_clock.hpp"
#include "measure/l2_flush.hpp"
#include "measure/launch.hpp"
#include "measure/timing_options.hpp"
#include "protocol/packet_channel.hpp"
#include "referee/shared_operands.hpp"

#include <kbench/plugin.h>

#include <cuda_runtime_api.h>

#include <memory>
#include <optional>
#include <cstdint>
#include <string>
#include <vector>

namespace kb {

class CaseTimer {
 public:
  // For CUDA plugins the device is made current and a stream and events are created. A version 3
  // strategy's cases are refereed through `referee` (its family runs in the referee process;
  // `output_fd`: the worker's standard output, which the referee reads); a version 1 or 2 plugin's
  // work is counted by `family`, when its family has a library.
  CaseTimer(const KernelPlugin& plugin, const KernelFamily* family, const PacketChannel* referee,
            int output_fd, int device, TimingOptions options);
  ~CaseTimer();
  CaseTimer(const CaseTimer&) = delete;
  CaseTimer& operator=(const CaseTimer&) = delete;

  // The outcome's context_lost is set when the CUDA context is lost (a sticky error such as an
  // illegal address) and the worker must not run another case.
  CaseOutcome run(const CaseRequest& request);

 private:
  // What the sampling loop leaves for the row.
  struct Sampling {
    std::vector<double> samples;
    bool settled = false;
    bool held = false;      // the stream was held for every kept sample
    int launches = 1;       // launches per sample
    std::string note;       // why the timing method changed, or the clock fell
    std::optional<unsigned> lowest_clock_mhz;
    std::vector<double> poisoned_us, single_us;  // the checked samples and their plain twins
    std::optional<kb_verification> figures;      // of the first checked sample
    const char* failed_stage = "launch";          // the hook whose error ended the sampling
    // The referee holds the outputs of the first launch compared: every later launch on the same
    // inputs must leave the same bits (unless the strategy declares KB_FLAG_NONDETERMINISTIC).
    bool compared_output = false;
    bool slow = false;  // the warm-up launch took kSlowLaunchUs or more
  };
  // A check that failed: its name and what it found, for the row.
  struct Failure {
    kb_status status = KB_OK;
    std::string message;
  };

  bool cuda() const { return plugin_.device == KB_DEVICE_CUDA; }
  // Whether samples are taken with the stream held by the blocking kernel (latency hidden).
  bool holds_stream() const {
    return cuda() && options_.hide_launch_latency && !options_.profile &&
           !(plugin_.flags & KB_FLAG_SYNCHRONIZES);
  }
  // Whether what the host does in a launch lies between the clock's two readings: a host
  // strategy's, or a CUDA launch timed without the stream held (one that synchronises in launch).
  bool host_share_timed() const { return !cuda() || !holds_stream(); }
  bool refereed() const { return referee_ != nullptr && plugin_.abi_version >= 3; }
  // Whether the runner zeroes the outputs before each launch it times or checks
  // (KB_FLAG_ZEROED_OUTPUTS): each sample is then one launch, the fill before its clock starts.
  bool zeroes_outputs() const { return (plugin_.flags & KB_FLAG_ZEROED_OUTPUTS) != 0; }
  // Before a launch that is timed or checked: the outputs zeroed where the strategy asked.
  kb_status before_launch(CaseUnderTest& test, kb_message& message);
  CaseOutcome run_unguarded(const CaseRequest& request);
  // The first launch, unheld, its outputs poisoned before; `stage` names the step that failed.
  kb_status warm_up(CaseUnderTest& test, const LaunchOnce& launch, kb_message& message,
                    double& warm_up_us, const char*& stage);
  // The clocks beside the samples: the back-to-back gain, the self-checks, CUPTI, the SM clock.
  kb_status other_clocks(const LaunchOnce& launch, const Sampling& sampling, double median_us,
                         kb_message& message, CaseOutcome& result, std::string& note);
  // The operations a captured launch puts on the stream it is given (none captured: unknown).
  void count_captured_operations(CaseUnderTest& test, CaseOutcome& result);
  // The samples' summary, the launch's shape and the check's figures, into the outcome.
  void record_sampling(const Sampling& sampling, const kb_launch_config& config,
                       const kb_verification& figures, CaseOutcome& result) const;
  kb_status sample(CaseUnderTest& test, const LaunchOnce& launch, const std::string& range,
                   std::uint64_t seed, kb_message& message, Sampling& sampling, Failure& failure);
  // Whether the outputs hold the bits of the first checked launch (noted as a failure if not).
  bool same_output(CaseUnderTest& test, Sampling& sampling, Failure& failure);
  // A sample of one launch with its outputs poisoned before and checked after, and a plain one
  // beside it.
  kb_status checked_sample(CaseUnderTest& test, const LaunchOnce& launch, bool hold,
                           kb_message& message, Sampling& sampling, Failure& failure);
  // The family's check of the launch just made on poisoned outputs, and its bits against the first
  // checked launch's; a failure is noted in `failure`, an error returned.
  kb_status judge_checked_launch(CaseUnderTest& test, kb_message& message, Sampling& sampling,
                                 Failure& failure);
  // The last word: for a refereed case, inputs left as drawn by the timed launches, then fresh
  // inputs, a checked launch, inputs left as drawn again, and a launch on new inputs over an
  // unpoisoned output; for a self-refereed one, its own verify.
  // `held`: the samples were held, and the launch timed against their median is too.
  // The launch on changed inputs is held against the samples' median and spread, `gain_us`, what
  // the device gains per launch back to back where a sample holds several, and `penalty_us`, what
  // a launch pays for following the referee's work.
  kb_status verdict(CaseUnderTest& test, const LaunchOnce& launch, double median_us,
                    const std::vector<double>& samples, double gain_us, double penalty_us,
                    bool held, kb_message& message, kb_verification& figures, Failure& failure);
  // What the checked samples (each right after the referee's poison) took over the plain
  // one-launch ones, bounded: the cost of a launch that follows the referee's work.
  double referee_penalty_us(const Sampling& sampling, double median_us) const;
  // One sample: `launches` launches between two events, per launch, after before_launch. With
  // `hold`, the stream is held by the blocking kernel while they are enqueued; `hold_timed_out`
  // then says a launch waited for the device (the sample is void).
  // `host_us`: the host's time per launch of enqueueing them.
  kb_status timed_launches(CaseUnderTest& test, const LaunchOnce& launch, bool hold, int launches,
                           kb_message& message, double& microseconds, bool& hold_timed_out,
                           double* host_us = nullptr);
  // The least host time of one launch call with the stream free (the launch synchronised after).
  kb_status unheld_host_time(const LaunchOnce& launch, kb_message& message, double& host_us);
  // The back-to-back, host-clock and energy figures of the row.
  kb_status self_checks(const LaunchOnce& launch, double median_us, kb_message& message,
                        CaseOutcome& result, std::string& note);
  void read_device_state(const Sampling& sampling, CaseOutcome& result, std::string& note);
  // What CUPTI adds, after the self-checks: the fourth clock's traced batch, and with --metrics
  // the counters of one more launch (a launch per pass).
  kb_status cupti_figures(const LaunchOnce& launch, double median_us, kb_message& message,
                          CaseOutcome& result);

  const KernelPlugin& plugin_;
  const KernelFamily* family_;       // a version 1 or 2 plugin's family, which counts its work
  const PacketChannel* referee_;     // a version 3 strategy's: the referee process's channel
  int output_fd_;                    // the worker's standard output, a file the referee reads
  KeptMappings kept_mappings_;       // refereed cases' host operands, kept for later cases
  TimingOptions options_;
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<CudaTimer> timer_;
  std::unique_ptr<BlockingKernel> blocker_;
  std::unique_ptr<GpuMonitor> monitor_;
  std::unique_ptr<L2Flush> flush_;
  std::unique_ptr<CuptiClock> cupti_clock_;
  std::unique_ptr<CounterProfiler> counters_;
  double dram_gbps_ = 0;  // the device's theoretical DRAM bandwidth, for dram_throughput
};

}  // namespace kb
