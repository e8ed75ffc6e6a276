// Clocks, temperature and throttle reasons read from the driver through NVML, so a row can say
// whether the GPU held its clocks while the case was sampled.
#pragma once

#include <optional>
#include <string>

namespace kb {

struct GpuState {
  bool known = false;  // false when NVML is not there (no driver) or the device was not found
  unsigned sm_clock_mhz = 0;
  unsigned mem_clock_mhz = 0;
  unsigned temperature_c = 0;
  std::string throttle;  // reasons that slow the GPU, comma-separated; empty when none
};

// NVML is loaded at run time (libnvidia-ml.so.1 comes with the driver, not the toolkit), so
// kbench builds and runs on machines without it.
class GpuMonitor {
 public:
  explicit GpuMonitor(const std::string& uuid);  // the CUDA UUID, "GPU-xxxxxxxx-..."
  ~GpuMonitor();
  GpuMonitor(const GpuMonitor&) = delete;
  GpuMonitor& operator=(const GpuMonitor&) = delete;

  GpuState read() const;
  // The SM clock now, and the highest it runs at (MHz); nullopt without NVML.
  std::optional<unsigned> sm_clock_mhz() const;
  std::optional<unsigned> max_sm_clock_mhz() const;
  // The board's energy counter (J since the driver loaded); it moves in steps (every 100 ms on an
  // H100), so a window of energy is timed by the counter's changes, not by the calls.
  std::optional<double> energy_joules() const;

 private:
  void* library_ = nullptr;
  void* device_ = nullptr;
};

// Names of the slowdown bits of an NVML clocks-event mask (idle and the application clock
// setting are not slowdowns and are left out).
std::string throttle_reasons(unsigned long long mask);

}  // namespace kb
