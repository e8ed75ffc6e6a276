// The fourth clock: after the samples, one more batch of launches with CUPTI's activity tracing on
// (kernels, copies and memsets: CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, MEMCPY, MEMSET), and the
// device time those records hold, per launch, on every stream of the context. Beside the events'
// median (one stream, launches held), the batch's events (`batch_us`) and the host's clock
// (`host_us`), it sees what ran and where: how many kernels a launch enqueued whatever the plugin
// says, and whether any ran on a stream other than the one given (judge/plausibility.hpp judges
// it). CUPTI is loaded at run time (device/cupti_library.hpp): without it, or where the driver
// refuses tracing, the clock says why once and stays off.
#pragma once

#include "device/cupti_library.hpp"
#include "measure/l2_flush.hpp"
#include "measure/launch.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kb {

// What one traced batch showed, per launch.
struct CuptiTiming {
  double launch_us = 0;        // device time of every kernel, copy and memset, on every stream
  double stream_us = 0;        // of those on the stream the launch was given
  double busiest_us = 0;       // of the stream that had the most
  double operations = 0;       // kernels, copies and memsets, on every stream
  double other_operations = 0;  // of those, on another stream than the one given
  // The kernels one launch ran, by name, each with how many times a launch ran it, in the order
  // they first ran: "transpose_tile<float>x1; cub::DeviceReduceKernel<...>x1 [CUB]"
  // (kernel_names_text).
  std::vector<std::pair<std::string, double>> kernels;
};

// One record of device work, as the tracing delivered it.
struct DeviceActivity {
  enum class Kind { kernel, memcpy, memset } kind = Kind::kernel;
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint32_t stream = 0;
  std::uint64_t bytes = 0;  // copies and memsets
  std::string name;         // a kernel's, as compiled (mangled)
};

// A kernel's name as people read it: demangled, template arguments beyond 60 characters cut, and
// "[cuBLAS]" or "[CUB]" after a vendor library's kernel.
std::string readable_kernel_name(const std::string& compiled);
// The `kernels` column: "name x count" for each kernel of a launch, "; " between them.
std::string kernel_names_text(const std::vector<std::pair<std::string, double>>& kernels);

// The batch's figures from its records: `stream` is the given stream's CUPTI id, `launches` the
// batch's launches; memsets of `flush_bytes` on the given stream are the cold-cache flushes
// between launches and are left out (0: none).
CuptiTiming summarize_activity(const std::vector<DeviceActivity>& records, std::uint32_t stream,
                               int launches, std::uint64_t flush_bytes);

class CuptiClock {
 public:
  // The process's CUPTI by default (CuptiLibrary::get()).
  explicit CuptiClock(const CuptiLibrary& library = CuptiLibrary::get());
  CuptiClock(const CuptiClock&) = delete;
  CuptiClock& operator=(const CuptiClock&) = delete;

  // Why the clock is off ("" while it is on): no CUPTI, a profiler attached, or CUPTI refused
  // tracing once (it stays off for the process then).
  const std::string& why_not() const { return why_not_; }

  // `launches` launches back to back on `stream`, traced; with `flush`, each after an L2 flush.
  // A launch's own error is returned; CUPTI's failures leave `timing` empty and why_not() set.
  kb_status trace(const LaunchOnce& launch, cudaStream_t stream, int launches, L2Flush* flush,
                  kb_message& message, std::optional<CuptiTiming>& timing);

 private:
  bool start_tracing(cudaStream_t stream, std::uint32_t& stream_id);
  void stop_tracing();
  const CuptiLibrary& cupti_;
  std::string why_not_;
};

}  // namespace kb
