#include "measure/cupti_clock.hpp"

#include "device/cupti_library.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

#if KBENCH_HAVE_CUPTI
#include <cupti_activity.h>
#endif

namespace kb {

CuptiTiming summarize_activity(const std::vector<DeviceActivity>& records, std::uint32_t stream,
                               int launches, std::uint64_t flush_bytes) {
  CuptiTiming timing;
  if (launches < 1) return timing;
  std::map<std::uint32_t, double> per_stream_ns;
  double all_ns = 0, operations = 0, other = 0;
  for (const DeviceActivity& r : records) {
    if (r.kind == DeviceActivity::Kind::memset && flush_bytes > 0 && r.bytes == flush_bytes &&
        r.stream == stream) {
      continue;  // the cold-cache flush before a launch
    }
    const double ns = r.end_ns > r.start_ns ? static_cast<double>(r.end_ns - r.start_ns) : 0.0;
    per_stream_ns[r.stream] += ns;
    all_ns += ns;
    ++operations;
    if (r.stream != stream) ++other;
  }
  const double per_launch_us = 1e-3 / launches;
  timing.launch_us = all_ns * per_launch_us;
  timing.stream_us = per_stream_ns.count(stream) ? per_stream_ns[stream] * per_launch_us : 0.0;
  for (const auto& [id, ns] : per_stream_ns) {
    timing.busiest_us = std::max(timing.busiest_us, ns * per_launch_us);
  }
  timing.operations = operations / launches;
  timing.other_operations = other / launches;
  std::vector<std::pair<std::string, double>> kernels;
  for (const DeviceActivity& r : records) {
    if (r.kind != DeviceActivity::Kind::kernel) continue;
    const std::string name = readable_kernel_name(r.name);
    auto at = std::find_if(kernels.begin(), kernels.end(),
                           [&](const auto& k) { return k.first == name; });
    if (at == kernels.end()) at = kernels.insert(kernels.end(), {name, 0.0});
    at->second += 1.0 / launches;
  }
  timing.kernels = std::move(kernels);
  return timing;
}

std::string readable_kernel_name(const std::string& compiled) {
  int failed = 0;
  char* demangled = abi::__cxa_demangle(compiled.c_str(), nullptr, nullptr, &failed);
  std::string name = failed == 0 && demangled != nullptr ? demangled : compiled;
  std::free(demangled);
  // The kernel's own name and its template arguments, not its parameters' types.
  if (const auto open = name.rfind('('); open != std::string::npos && name.back() == ')') {
    name.erase(open);
  }
  if (name.rfind("void ", 0) == 0) name.erase(0, 5);
  constexpr std::size_t kLongest = 60;
  if (const auto angle = name.find('<'); angle != std::string::npos && name.size() - angle > kLongest) {
    name = name.substr(0, angle + kLongest) + "...>";
  }
  const bool cub = name.rfind("cub::", 0) == 0 || name.find("::cub::") != std::string::npos;
  const bool cublas = name.find("cutlass") != std::string::npos ||
                      name.find("xmma") != std::string::npos || name.find("gemmk") != std::string::npos ||
                      name.rfind("ampere_", 0) == 0 || name.rfind("sm90_", 0) == 0 ||
                      name.rfind("sm80_", 0) == 0 || name.rfind("gemv", 0) == 0 ||
                      name.find("cublas") != std::string::npos;
  if (cub) name += " [CUB]";
  if (cublas) name += " [cuBLAS]";
  return name;
}

std::string kernel_names_text(const std::vector<std::pair<std::string, double>>& kernels) {
  std::string text;
  for (const auto& [name, count] : kernels) {
    char times[32];
    std::snprintf(times, sizeof times, "x%g", count);
    text += (text.empty() ? "" : "; ") + name + " " + times;
  }
  return text;
}

#if KBENCH_HAVE_CUPTI

namespace {

// CUPTI hands its records over in buffers of the client's, from its own thread or from the
// flush: one collector for the process (one clock traces at a time).
constexpr std::size_t kBufferBytes = 4 << 20;

struct Collector {
  std::mutex mutex;
  std::vector<DeviceActivity> records;
  std::size_t dropped = 0;
};
Collector& collector() {
  static Collector c;
  return c;
}

using GetNextRecord = CUptiResult (*)(uint8_t*, size_t, CUpti_Activity**);
GetNextRecord next_record = nullptr;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer == nullptr ? 0 : kBufferBytes;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  std::vector<DeviceActivity> found;
  CUpti_Activity* record = nullptr;
  while (valid > 0 && next_record != nullptr &&
         next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
    DeviceActivity a;
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      case CUPTI_ACTIVITY_KIND_KERNEL: {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        a = {DeviceActivity::Kind::kernel, k->start, k->end, k->streamId, 0,
             k->name != nullptr ? k->name : ""};
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        a = {DeviceActivity::Kind::memcpy, m->start, m->end, m->streamId, m->bytes, ""};
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        a = {DeviceActivity::Kind::memset, m->start, m->end, m->streamId, m->bytes, ""};
        break;
      }
      default: continue;
    }
    found.push_back(a);
  }
  std::free(buffer);
  Collector& c = collector();
  const std::lock_guard<std::mutex> lock(c.mutex);
  c.records.insert(c.records.end(), found.begin(), found.end());
}

constexpr CUpti_ActivityKind kTraced[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                          CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET};

using Enable = CUptiResult (*)(CUpti_ActivityKind);
using Register = CUptiResult (*)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
using FlushAll = CUptiResult (*)(uint32_t);
using StreamId = CUptiResult (*)(CUcontext, CUstream, uint8_t, uint32_t*);

}  // namespace

CuptiClock::CuptiClock(const CuptiLibrary& library)
    : cupti_(library), why_not_(why_unusable(library)) {}

bool CuptiClock::start_tracing(cudaStream_t stream, std::uint32_t& stream_id) {
  const CuptiLibrary& cupti = cupti_;
  static bool registered = false;
  const auto refuse = [&](const char* what, CUptiResult result) {
    why_not_ = std::string("CUPTI refuses ") + what + ": " + cupti.result_text(result);
    return false;
  };
  if (!registered) {
    next_record = cupti.function<GetNextRecord>("cuptiActivityGetNextRecord");
    const auto register_callbacks = cupti.function<Register>("cuptiActivityRegisterCallbacks");
    if (next_record == nullptr || register_callbacks == nullptr) {
      why_not_ = cupti.path() + " lacks the activity API";
      return false;
    }
    if (const CUptiResult r = register_callbacks(buffer_requested, buffer_completed)) {
      return refuse("activity buffers", r);
    }
    registered = true;
  }
  const auto get_stream_id = cupti.function<StreamId>("cuptiGetStreamIdEx");
  if (get_stream_id == nullptr) {
    why_not_ = cupti.path() + " lacks cuptiGetStreamIdEx";
    return false;
  }
  if (const CUptiResult r = get_stream_id(nullptr, reinterpret_cast<CUstream>(stream), 0, &stream_id)) {
    return refuse("stream ids", r);
  }
  const auto enable = cupti.function<Enable>("cuptiActivityEnable");
  if (enable == nullptr) {
    why_not_ = cupti.path() + " lacks cuptiActivityEnable";
    return false;
  }
  {
    Collector& c = collector();
    const std::lock_guard<std::mutex> lock(c.mutex);
    c.records.clear();
  }
  for (const CUpti_ActivityKind kind : kTraced) {
    if (const CUptiResult r = enable(kind)) {
      stop_tracing();
      return refuse("kernel tracing", r);
    }
  }
  return true;
}

void CuptiClock::stop_tracing() {
  const CuptiLibrary& cupti = cupti_;
  if (const auto disable = cupti.function<Enable>("cuptiActivityDisable")) {
    for (const CUpti_ActivityKind kind : kTraced) disable(kind);
  }
  if (const auto flush = cupti.function<FlushAll>("cuptiActivityFlushAll")) {
    flush(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  }
}

kb_status CuptiClock::trace(const LaunchOnce& launch, cudaStream_t stream, int launches,
                            L2Flush* flush, kb_message& message,
                            std::optional<CuptiTiming>& timing) {
  timing.reset();
  if (!why_not_.empty() || launches < 1) return KB_OK;
  // Nothing of the case before in flight: only the batch's launches are traced.
  if (const kb_status s = from_cuda(cudaDeviceSynchronize(), message, "before the CUPTI batch")) {
    return s;
  }
  std::uint32_t stream_id = 0;
  if (!start_tracing(stream, stream_id)) return KB_OK;
  kb_status status = KB_OK;
  for (int i = 0; i < launches && status == KB_OK; ++i) {
    if (flush != nullptr) flush->flush(stream);
    status = launch(stream);
  }
  // The device, not the stream: the launch's work on other streams too.
  if (status == KB_OK) status = from_cuda(cudaDeviceSynchronize(), message, "CUPTI batch");
  stop_tracing();
  if (status != KB_OK) return status;
  std::vector<DeviceActivity> records;
  {
    Collector& c = collector();
    const std::lock_guard<std::mutex> lock(c.mutex);
    records.swap(c.records);
  }
  timing = summarize_activity(records, stream_id, launches,
                              flush != nullptr ? flush->size() : 0);
  return KB_OK;
}

#else  // built without the CUPTI headers

CuptiClock::CuptiClock(const CuptiLibrary& library) : cupti_(library), why_not_(library.why_not()) {}
bool CuptiClock::start_tracing(cudaStream_t, std::uint32_t&) { return false; }
void CuptiClock::stop_tracing() {}
kb_status CuptiClock::trace(const LaunchOnce&, cudaStream_t, int, L2Flush*, kb_message&,
                            std::optional<CuptiTiming>& timing) {
  timing.reset();
  return KB_OK;
}

#endif

}  // namespace kb
