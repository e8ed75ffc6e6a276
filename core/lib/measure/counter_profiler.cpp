#include "measure/counter_profiler.hpp"

#include "device/cupti_library.hpp"

#include <dlfcn.h>

#include <cmath>

#if KBENCH_HAVE_CUPTI
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#endif

namespace kb {

#if KBENCH_HAVE_CUPTI

// A profiling API call through the loaded library: every one takes one parameter structure.
// Fills `failed` with the call and CUPTI's word for its failure.
template <typename Params>
bool CounterProfiler::call(const char* name, Params& params, std::string& failed) const {
  const CuptiLibrary& cupti = cupti_;
  const auto function = cupti.function<CUptiResult (*)(Params*)>(name);
  if (function == nullptr) {
    failed = cupti.path() + " lacks " + name;
    return false;
  }
  const CUptiResult result = function(&params);
  if (result == CUPTI_SUCCESS) return true;
  failed = std::string(name) + ": " + cupti.result_text(result);
  return false;
}

namespace {

// The CUDA context the runtime made current: the driver's, read through the driver library the
// runtime loaded (kbench does not link the driver).
void* current_context() {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (driver == nullptr) return nullptr;
  using GetCurrent = int (*)(CUcontext*);
  const auto get_current = reinterpret_cast<GetCurrent>(dlsym(driver, "cuCtxGetCurrent"));
  CUcontext context = nullptr;
  if (get_current == nullptr || get_current(&context) != 0) context = nullptr;
  dlclose(driver);
  return context;
}

const char* support_word(CUpti_Profiler_Support_Level level) {
  switch (level) {
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED: return "supported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED: return "disabled";
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED: return "unsupported";
    default: return "unknown";
  }
}

}  // namespace

CounterProfiler::CounterProfiler(int device, std::vector<Counter> counters,
                                 const CuptiLibrary& library)
    : cupti_(library), device_(device), counters_(std::move(counters)),
      why_not_(why_unusable(library)) {
  if (why_not_.empty() && counters_.empty()) why_not_ = "no counters asked for";
}

CounterProfiler::~CounterProfiler() {
  std::string ignored;
  if (host_object_ != nullptr) {
    CUpti_Profiler_Host_Deinitialize_Params params{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    params.pHostObject = static_cast<CUpti_Profiler_Host_Object*>(host_object_);
    call("cuptiProfilerHostDeinitialize", params, ignored);
  }
  if (initialized_) {
    CUpti_Profiler_DeInitialize_Params params{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
    call("cuptiProfilerDeInitialize", params, ignored);
  }
}

bool CounterProfiler::set_up() {
  set_up_ = true;
  std::string failed;
  const auto refuse = [&](const std::string& why) {
    why_not_ = why;
    return false;
  };
  const CuptiLibrary& cupti = cupti_;
  // The profiler's own libraries, which CUPTI opens by name: beside libcupti in the toolkit.
  for (const char* file : {"libnvperf_host.so", "libnvperf_target.so"}) {
    if (!cupti.load_beside(file)) return refuse(std::string(file) + " not found beside " + cupti.path());
  }
  context_ = current_context();
  if (context_ == nullptr) return refuse("no current CUDA context to profile");

  CUpti_Profiler_Initialize_Params initialize{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  if (!call("cuptiProfilerInitialize", initialize, failed)) return refuse(failed);
  initialized_ = true;

  CUpti_Profiler_DeviceSupported_Params supported{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
  supported.cuDevice = device_;
  supported.api = CUPTI_PROFILER_RANGE_PROFILING;
  if (!call("cuptiProfilerDeviceSupported", supported, failed)) return refuse(failed);
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    std::string why = "the device does not allow profiling (architecture ";
    why += std::string(support_word(supported.architecture)) + ", vGPU " +
           support_word(supported.vGpu) + ", confidential compute " +
           support_word(supported.confidentialCompute) + ", CMP " + support_word(supported.cmp) +
           ", WSL " + support_word(supported.wsl) + ")";
    return refuse(why);
  }

  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<size_t>(device_);
  if (!call("cuptiDeviceGetChipName", chip, failed)) return refuse(failed);

  CUpti_Profiler_GetCounterAvailability_Params availability{
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  availability.ctx = static_cast<CUcontext>(context_);
  if (!call("cuptiProfilerGetCounterAvailability", availability, failed)) return refuse(failed);
  std::vector<std::uint8_t> available(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = available.data();
  if (!call("cuptiProfilerGetCounterAvailability", availability, failed)) return refuse(failed);

  CUpti_Profiler_Host_Initialize_Params host{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip.pChipName;
  host.pCounterAvailabilityImage = available.data();
  if (!call("cuptiProfilerHostInitialize", host, failed)) return refuse(failed);
  host_object_ = host.pHostObject;

  // Each counter alone first: one CUPTI does not know would refuse the whole configuration.
  for (const Counter& counter : counters_) {
    CUpti_Profiler_Host_GetMetricProperties_Params properties{
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
    properties.pHostObject = host.pHostObject;
    properties.pMetricName = counter.name.c_str();
    if (call("cuptiProfilerHostGetMetricProperties", properties, failed)) {
      names_.push_back(counter.name);
      labels_.push_back(counter.label);
    } else {
      refused_ += (refused_.empty() ? "" : ", ") + counter.label;
    }
  }
  if (!refused_.empty()) {
    refused_ = "CUPTI does not know " + refused_ + " on " + chip.pChipName;
  }
  if (names_.empty()) return refuse(refused_);
  std::vector<const char*> names;
  for (const auto& name : names_) names.push_back(name.c_str());
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = host.pHostObject;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  if (!call("cuptiProfilerHostConfigAddMetrics", add, failed)) return refuse(failed);
  CUpti_Profiler_Host_GetConfigImageSize_Params size{
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  size.pHostObject = host.pHostObject;
  if (!call("cuptiProfilerHostGetConfigImageSize", size, failed)) return refuse(failed);
  config_image_.resize(size.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params image{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  image.pHostObject = host.pHostObject;
  image.configImageSize = config_image_.size();
  image.pConfigImage = config_image_.data();
  if (!call("cuptiProfilerHostGetConfigImage", image, failed)) return refuse(failed);
  CUpti_Profiler_Host_GetNumOfPasses_Params passes{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  passes.configImageSize = config_image_.size();
  passes.pConfigImage = config_image_.data();
  if (!call("cuptiProfilerHostGetNumOfPasses", passes, failed)) return refuse(failed);
  passes_ = passes.numOfPasses;
  return true;
}

kb_status CounterProfiler::collect(const LaunchOnce& launch, cudaStream_t stream, L2Flush* flush,
                                   kb_message& message, std::optional<CounterReading>& reading) {
  reading.reset();
  if (!why_not_.empty()) return KB_OK;
  if (!set_up_ && !set_up()) return KB_OK;
  if (const kb_status s = from_cuda(cudaDeviceSynchronize(), message, "before the counters")) {
    return s;
  }
  std::string failed;
  CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  enable.ctx = static_cast<CUcontext>(context_);
  if (!call("cuptiRangeProfilerEnable", enable, failed)) {
    why_not_ = failed;
    return KB_OK;
  }
  CUpti_RangeProfiler_Object* const object = enable.pRangeProfilerObject;
  kb_status status = KB_OK;
  // Whatever happens below, the profiler is disabled again before the case goes on.
  const auto finish = [&](const std::string& why) {
    CUpti_RangeProfiler_Disable_Params disable{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    disable.pRangeProfilerObject = object;
    std::string ignored;
    call("cuptiRangeProfilerDisable", disable, ignored);
    cudaGetLastError();
    if (!why.empty()) {
      why_not_ = why;
      reading.reset();
    }
    return status;
  };

  std::vector<const char*> names;
  for (const auto& name : names_) names.push_back(name.c_str());
  CUpti_RangeProfiler_GetCounterDataSize_Params size{
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  size.pRangeProfilerObject = object;
  size.pMetricNames = names.data();
  size.numMetrics = names.size();
  size.maxNumOfRanges = 1;
  size.maxNumRangeTreeNodes = 1;
  if (!call("cuptiRangeProfilerGetCounterDataSize", size, failed)) return finish(failed);
  std::vector<std::uint8_t> counter_data(size.counterDataSize);
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params initialize{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  initialize.pRangeProfilerObject = object;
  initialize.counterDataSize = counter_data.size();
  initialize.pCounterData = counter_data.data();
  if (!call("cuptiRangeProfilerCounterDataImageInitialize", initialize, failed)) return finish(failed);
  CUpti_RangeProfiler_SetConfig_Params config{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  config.pRangeProfilerObject = object;
  config.configSize = config_image_.size();
  config.pConfig = config_image_.data();
  config.counterDataImageSize = counter_data.size();
  config.pCounterDataImage = counter_data.data();
  config.range = CUPTI_UserRange;
  config.replayMode = CUPTI_UserReplay;
  config.maxRangesPerPass = 1;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  if (!call("cuptiRangeProfilerSetConfig", config, failed)) return finish(failed);

  // One launch per pass until CUPTI has every pass it needs (bounded: a library that never says
  // so must not loop the worker forever).
  CounterReading result;
  const std::size_t most = std::max<std::size_t>(passes_, 1) + 8;
  bool all_submitted = false;
  while (!all_submitted && static_cast<std::size_t>(result.passes) < most) {
    if (flush != nullptr) flush->flush(stream);
    if (const kb_status s = from_cuda(cudaStreamSynchronize(stream), message, "before a pass")) {
      status = s;
      return finish("");
    }
    CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    start.pRangeProfilerObject = object;
    if (!call("cuptiRangeProfilerStart", start, failed)) return finish(failed);
    CUpti_RangeProfiler_PushRange_Params push{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
    push.pRangeProfilerObject = object;
    push.pRangeName = "kbench";
    const bool pushed = call("cuptiRangeProfilerPushRange", push, failed);
    if (pushed) status = launch(stream);
    CUpti_RangeProfiler_PopRange_Params pop{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
    pop.pRangeProfilerObject = object;
    if (pushed) call("cuptiRangeProfilerPopRange", pop, failed);
    CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = object;
    std::string stop_failed;
    const bool stopped = call("cuptiRangeProfilerStop", stop, stop_failed);
    if (status != KB_OK) return finish("");
    if (!pushed) return finish(failed);
    if (!stopped) return finish(stop_failed);
    ++result.passes;
    all_submitted = stop.isAllPassSubmitted != 0;
  }
  if (const kb_status s = from_cuda(cudaDeviceSynchronize(), message, "after the counters")) {
    status = s;
    return finish("");
  }
  if (!all_submitted) {
    return finish("CUPTI asked for more than " + std::to_string(most) + " passes");
  }
  CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  decode.pRangeProfilerObject = object;
  if (!call("cuptiRangeProfilerDecodeData", decode, failed)) return finish(failed);
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = counter_data.data();
  info.counterDataImageSize = counter_data.size();
  if (!call("cuptiRangeProfilerGetCounterDataInfo", info, failed)) return finish(failed);
  if (info.numTotalRanges < 1) return finish("the profiler recorded no range");
  std::vector<double> values(names.size(), NAN);
  CUpti_Profiler_Host_EvaluateToGpuValues_Params evaluate{
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  evaluate.pHostObject = static_cast<CUpti_Profiler_Host_Object*>(host_object_);
  evaluate.pCounterDataImage = counter_data.data();
  evaluate.counterDataImageSize = counter_data.size();
  evaluate.rangeIndex = 0;
  evaluate.ppMetricNames = names.data();
  evaluate.numMetrics = names.size();
  evaluate.pMetricValues = values.data();
  if (!call("cuptiProfilerHostEvaluateToGpuValues", evaluate, failed)) return finish(failed);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::isfinite(values[i])) result.values.emplace_back(labels_[i], values[i]);
  }
  reading = std::move(result);
  return finish("");
}

#else  // built without the CUPTI headers

CounterProfiler::CounterProfiler(int device, std::vector<Counter> counters,
                                 const CuptiLibrary& library)
    : cupti_(library), device_(device), counters_(std::move(counters)), why_not_(library.why_not()) {}
CounterProfiler::~CounterProfiler() = default;
bool CounterProfiler::set_up() { return false; }
kb_status CounterProfiler::collect(const LaunchOnce&, cudaStream_t, L2Flush*, kb_message&,
                                   std::optional<CounterReading>& reading) {
  reading.reset();
  return KB_OK;
}

#endif

}  // namespace kb
