#include "device/gpu_monitor.hpp"

#include <dlfcn.h>

namespace kb {
namespace {

// The few NVML entry points used, as declared in nvml.h (stable C ABI since NVML 10).
using NvmlInit = int (*)();
using NvmlShutdown = int (*)();
using NvmlByUuid = int (*)(const char*, void**);
using NvmlClock = int (*)(void*, int, unsigned*);
using NvmlTemperature = int (*)(void*, int, unsigned*);
using NvmlReasons = int (*)(void*, unsigned long long*);
using NvmlEnergy = int (*)(void*, unsigned long long*);
constexpr int kNvmlSuccess = 0;
constexpr int kClockSm = 1, kClockMem = 2, kTemperatureGpu = 0;

template <typename F>
F symbol(void* library, const char* name) {
  return reinterpret_cast<F>(dlsym(library, name));
}

}  // namespace

std::string throttle_reasons(unsigned long long mask) {
  // nvmlClocksEventReason* bits.
  static const std::pair<unsigned long long, const char*> kReasons[] = {
      {0x4, "sw_power_cap"},        {0x8, "hw_slowdown"},
      {0x10, "sync_boost"},         {0x20, "sw_thermal"},
      {0x40, "hw_thermal"},         {0x80, "hw_power_brake"},
      {0x100, "display_clock"}};
  std::string text;
  for (const auto& [bit, name] : kReasons) {
    if (mask & bit) text += (text.empty() ? "" : ",") + std::string(name);
  }
  return text;
}

GpuMonitor::GpuMonitor(const std::string& uuid) {
  library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) return;
  const auto init = symbol<NvmlInit>(library_, "nvmlInit_v2");
  const auto by_uuid = symbol<NvmlByUuid>(library_, "nvmlDeviceGetHandleByUUID");
  if (init == nullptr || by_uuid == nullptr || init() != kNvmlSuccess ||
      by_uuid(uuid.c_str(), &device_) != kNvmlSuccess) {
    device_ = nullptr;
  }
}

GpuMonitor::~GpuMonitor() {
  if (library_ == nullptr) return;
  if (const auto shutdown = symbol<NvmlShutdown>(library_, "nvmlShutdown")) shutdown();
  dlclose(library_);
}

GpuState GpuMonitor::read() const {
  GpuState state;
  if (device_ == nullptr) return state;
  const auto clock = symbol<NvmlClock>(library_, "nvmlDeviceGetClockInfo");
  const auto temperature = symbol<NvmlTemperature>(library_, "nvmlDeviceGetTemperature");
  auto reasons = symbol<NvmlReasons>(library_, "nvmlDeviceGetCurrentClocksEventReasons");
  if (reasons == nullptr) {
    reasons = symbol<NvmlReasons>(library_, "nvmlDeviceGetCurrentClocksThrottleReasons");
  }
  unsigned long long mask = 0;
  state.known = clock && temperature && reasons &&
                clock(device_, kClockSm, &state.sm_clock_mhz) == kNvmlSuccess &&
                clock(device_, kClockMem, &state.mem_clock_mhz) == kNvmlSuccess &&
                temperature(device_, kTemperatureGpu, &state.temperature_c) == kNvmlSuccess &&
                reasons(device_, &mask) == kNvmlSuccess;
  state.throttle = throttle_reasons(mask);
  return state;
}

std::optional<unsigned> GpuMonitor::sm_clock_mhz() const {
  unsigned mhz = 0;
  const auto clock = device_ ? symbol<NvmlClock>(library_, "nvmlDeviceGetClockInfo") : nullptr;
  if (clock == nullptr || clock(device_, kClockSm, &mhz) != kNvmlSuccess) return std::nullopt;
  return mhz;
}

std::optional<unsigned> GpuMonitor::max_sm_clock_mhz() const {
  unsigned mhz = 0;
  const auto clock = device_ ? symbol<NvmlClock>(library_, "nvmlDeviceGetMaxClockInfo") : nullptr;
  if (clock == nullptr || clock(device_, kClockSm, &mhz) != kNvmlSuccess) return std::nullopt;
  return mhz;
}

std::optional<double> GpuMonitor::energy_joules() const {
  unsigned long long millijoules = 0;
  const auto energy =
      device_ ? symbol<NvmlEnergy>(library_, "nvmlDeviceGetTotalEnergyConsumption") : nullptr;
  if (energy == nullptr || energy(device_, &millijoules) != kNvmlSuccess) return std::nullopt;
  return millijoules * 1e-3;
}

}  // namespace kb
