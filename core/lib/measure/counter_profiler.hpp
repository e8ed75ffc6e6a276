// `--metrics`: hardware counters of one more launch of the case, after its samples, through the
// CUPTI profiling API of CUDA 13 (the range profiler on the target, the profiler host API to
// configure and evaluate): one user range around one launch, replayed by kbench as many times as
// the counters need passes (each pass one launch: a launch is idempotent, its inputs read-only).
// The counters are device-wide over the range, as Nsight Compute's for a range. Where CUPTI is
// missing or the driver refuses profiling (no permission to the counters, a vGPU or MIG slice,
// another profiler attached), why_not() says so in one line and the row's `counters` stays empty.
#pragma once

#include "device/counters.hpp"
#include "device/cupti_library.hpp"
#include "measure/l2_flush.hpp"
#include "measure/launch.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kb {

struct CounterReading {
  std::vector<std::pair<std::string, double>> values;  // label, value: the `counters` cell
  int passes = 0;                                      // launches the reading took
};

class CounterProfiler {
 public:
  // Nothing is asked of CUPTI before the first collect(); `device` is the current CUDA device.
  CounterProfiler(int device, std::vector<Counter> counters,
                  const CuptiLibrary& library = CuptiLibrary::get());
  ~CounterProfiler();
  CounterProfiler(const CounterProfiler&) = delete;
  CounterProfiler& operator=(const CounterProfiler&) = delete;

  // Why no counters are read ("" while they are): it stays so for the process.
  const std::string& why_not() const { return why_not_; }
  // The counters CUPTI does not know on this device, named in one line ("" when none): they are
  // left out of every reading.
  const std::string& refused() const { return refused_; }

  // One launch per pass on `stream` inside one profiled range; with `flush`, the L2 flushed before
  // each. A launch's own error is returned; CUPTI's leave `reading` empty and why_not() set.
  kb_status collect(const LaunchOnce& launch, cudaStream_t stream, L2Flush* flush,
                    kb_message& message, std::optional<CounterReading>& reading);

 private:
  bool set_up();
  template <typename Params>
  bool call(const char* name, Params& params, std::string& failed) const;
  const CuptiLibrary& cupti_;
  int device_;
  std::vector<Counter> counters_;
  std::vector<std::string> names_;   // those CUPTI took, in order
  std::vector<std::string> labels_;  // their labels
  std::string why_not_, refused_;
  bool set_up_ = false;
  void* context_ = nullptr;      // CUcontext
  void* host_object_ = nullptr;  // CUpti_Profiler_Host_Object*
  bool initialized_ = false;     // cuptiProfilerInitialize succeeded
  std::vector<std::uint8_t> config_image_;
  std::size_t passes_ = 0;
};

}  // namespace kb
