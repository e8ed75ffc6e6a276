// What a results row says about the GPU: identity, size, and the theoretical ceilings.
#pragma once

#include "device/cuda_code.hpp"
#include "device/peak_rates.hpp"

#include <string>

namespace kb {

struct DeviceInfo {
  int index = -1;
  std::string name, uuid;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  long long l2_bytes = 0;
  int mem_bus_bits = 0;
  int mem_clock_khz = 0;
  int sm_clock_khz = 0;
  double theoretical_gbps = 0;  // 2 (DDR) x memory clock x bus width
  PeakRates peaks;              // at the highest SM clock
  std::string driver_version, runtime_version;
};

// Number of CUDA devices; 0 with the reason in *why when there is no driver or no device.
int cuda_device_count(std::string* why);

DeviceInfo query_device(int index);

// The device made current and its context created, with every driver node it needs opened: done by
// a child before it confines itself, since a sandboxed process may not open the nodes the driver
// makes or opens on first use. Throws kb::Error when the device cannot be used.
// How the process's host threads wait for the device: `spin` (CUDA's choice with fewer contexts
// than CPUs) answers soonest, for a process that times; `sleep` frees the CPU for the others, for
// a process whose waits time nothing (a spinning referee took a core, or a hardware thread of
// one, from the host strategy another lane was timing).
enum class HostWait { spin, sleep };
void open_device(int index, HostWait wait = HostWait::spin);

// "9.0", as a results row's compute_capability cell has it.
std::string compute_capability(const DeviceInfo& device);

// The compute capability of device `index`, without the rest of query_device; {0, 0} when the
// runtime cannot tell.
ComputeCapability device_capability(int index);

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi and NVML write it.
std::string device_uuid(int index);

std::string host_name();

}  // namespace kb
