// Runs the cases of one plugin inside a worker: setup, warm-up, timed launches until the stopping
// rule is satisfied, poison + launch + verify, teardown. Produces the case's outcome.
#pragma once

#include "blocking_kernel.hpp"
#include "gpu_monitor.hpp"
#include "case_outcome.hpp"
#include "case_request.hpp"
#include "protocol.hpp"
#include "statistics.hpp"

#include <kbench/plugin.h>

#include <cuda_runtime_api.h>

#include <memory>
#include <optional>

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

class CaseRunner {
 public:
  // For CUDA plugins the device is made current and a stream and events are created.
  CaseRunner(const KernelPlugin& plugin, int device, TimingOptions options);
  // The bytes written over before each sample in cold mode: twice the L2, at least 64 MiB.
  static std::size_t flush_bytes(int device);
  ~CaseRunner();
  CaseRunner(const CaseRunner&) = delete;
  CaseRunner& operator=(const CaseRunner&) = delete;

  // The outcome's context_lost is set when the CUDA context is lost (a sticky error such as an
  // illegal address) and the worker must not run another case.
  CaseOutcome run(const CaseRequest& request);

 private:
  bool cuda() const { return plugin_.device == KB_DEVICE_CUDA; }
  // Whether samples are taken with the stream held by the blocking kernel (latency hidden).
  bool holds_stream() const {
    return cuda() && options_.hide_launch_latency && !options_.profile &&
           !(plugin_.flags & KB_FLAG_SYNCHRONIZES);
  }
  CaseOutcome run_unguarded(const CaseRequest& request);
  // One sample: `launches` launches between two events, per launch. With `hold`, the stream is
  // held by the blocking kernel while they are enqueued; `hold_timed_out` then says a launch
  // waited for the device (the sample is void).
  kb_status timed_launch(void* state, kb_launch_config& config, kb_message& message, bool hold,
                         int launches, double& microseconds, bool& hold_timed_out);
  struct BatchTiming {
    double launch_us = 0;   // per launch, back to back
    double enqueue_us = 0;  // host time to enqueue one launch
  };
  kb_status batch_launch(void* state, kb_launch_config& config, kb_message& message,
                         double expected_us, BatchTiming& timing);
  struct HostTiming {
    double launch_us = 0;  // a synchronised launch of the plugin
    double idle_us = 0;    // a synchronised launch of an empty kernel
  };
  kb_status synchronised_host_time(void* state, kb_launch_config& config, kb_message& message,
                                   double expected_us, HostTiming& timing);
  long long captured_operations(void* state, kb_launch_config& config);
  // The board's mean power (W) over options_.energy_window_seconds of back-to-back launches;
  // none when the energy counter did not move.
  kb_status energy_window(void* state, kb_launch_config& config, kb_message& message,
                          double expected_us, std::optional<double>& watts);
  kb_status synchronize(kb_message& message);

  const KernelPlugin& plugin_;
  TimingOptions options_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  std::unique_ptr<BlockingKernel> blocker_;
  std::unique_ptr<GpuMonitor> monitor_;
  void* flush_buffer_ = nullptr;
  std::size_t flush_size_ = 0;
  unsigned char flush_value_ = 0;
};

// Device-to-device copy bandwidth, counting bytes read plus bytes written, in GB/s.
double measure_copy_gbps(int device);

}  // namespace kb
