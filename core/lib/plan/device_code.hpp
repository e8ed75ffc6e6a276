// Which code each planned case runs on its device, and the cases that have none. A plugin's code
// is what its library embeds (a kernel file's: what it is, or what NVRTC makes of it for the
// device); the driver's choice among it (device/cuda_code.hpp) names the row's `code`. A part
// without code for the device (sm_90a machine code alone on an A100, PTX newer than the device)
// is `unsupported` at planning, naming both architectures, before any of its code runs.
#pragma once

#include "device/code_images.hpp"
#include "device/cuda_code.hpp"
#include "plugin/plugin_info.hpp"

#include <map>
#include <string>
#include <vector>

namespace kb {

// The compute capability of each CUDA device a sweep runs on, by index.
using DeviceCapabilities = std::map<int, ComputeCapability>;

struct PartCode {
  std::string code;     // the row's `code` cell; "" where the device or the part's code is unknown
  std::string refusal;  // why the part cannot run on the device; "" when it can
};

class DeviceCode {
 public:
  explicit DeviceCode(DeviceCapabilities devices, JitPolicy jit = jit_policy_from_environment());

  // What `part` runs on device `device` (-1, or a device of unknown capability: nothing known).
  PartCode of(const PluginInfo& part, int device);

 private:
  std::vector<CodeUnit> units_of(const PluginInfo& part, ComputeCapability device);

  DeviceCapabilities devices_;
  JitPolicy jit_;
  std::map<std::string, std::vector<CodeUnit>> libraries_;  // by file, read once
};

}  // namespace kb
