#include "plan/device_code.hpp"

#include "plugin/kernel_manifest.hpp"

#include <algorithm>

namespace kb {
namespace {

// The architecture a .cu's own NVRTC options name (-arch=compute_80, --gpu-architecture=sm_90a);
// nothing where they name none.
std::vector<CodeImage> named_architecture(const std::vector<std::string>& options) {
  for (const auto& option : options) {
    for (const std::string flag : {"-arch=", "--gpu-architecture="}) {
      if (option.rfind(flag, 0) == 0) return parse_arch_list(option.substr(flag.size()));
    }
  }
  return {};
}

std::string device_text(ComputeCapability device) {
  return "compute capability " + std::to_string(device.major) + "." + std::to_string(device.minor) +
         ", sm_" + std::to_string(device.number());
}

std::string jit_text(JitPolicy jit) {
  return jit.forced     ? "; CUDA_FORCE_PTX_JIT=1 lets the driver load PTX alone"
         : jit.disabled ? "; CUDA_DISABLE_PTX_JIT=1 keeps the driver from compiling PTX"
                        : "";
}

}  // namespace

DeviceCode::DeviceCode(DeviceCapabilities devices, JitPolicy jit)
    : devices_(std::move(devices)), jit_(jit) {}

std::vector<CodeUnit> DeviceCode::units_of(const PluginInfo& part, ComputeCapability device) {
  if (const auto& manifest = part.kernel) {
    if (manifest->format != KernelFormat::source) return read_code_units(manifest->contents);
    // NVRTC compiles a .cu for the device itself unless its options name an architecture.
    std::vector<CodeImage> named = named_architecture(manifest->options);
    if (named.empty()) named.push_back({CodeImage::Kind::machine, device.number(), 0, ""});
    return {named};
  }
  auto found = libraries_.find(part.file);
  if (found == libraries_.end()) {
    std::vector<CodeUnit> units = read_code_units_of_file(part.file);
    // A library whose code cannot be read: what its descriptor says it was built for.
    if (units.empty()) {
      CodeUnit declared = parse_arch_list(part.cuda_archs);
      if (!declared.empty()) units.push_back(std::move(declared));
    }
    found = libraries_.emplace(part.file, std::move(units)).first;
  }
  return found->second;
}

PartCode DeviceCode::of(const PluginInfo& part, int device_index) {
  const auto device = devices_.find(device_index);
  // A family's library runs device code of its own (draws, checks) whatever its `device` says.
  const bool on_device = part.device == KB_DEVICE_CUDA || part.kind == PartKind::family;
  if (device == devices_.end() || !on_device) return {};
  const std::vector<CodeUnit> units = units_of(part, device->second);
  PartCode result;
  std::vector<std::string> codes;
  for (const CodeUnit& unit : units) {
    const auto chosen = choose_image(unit, device->second, jit_);
    if (!chosen) {
      CodeUnit all;
      for (const CodeUnit& u : units) all.insert(all.end(), u.begin(), u.end());
      result.refusal = "no code for this device (" + device_text(device->second) + "): built for " +
                       arch_list_text(all) + jit_text(jit_);
      return result;
    }
    const std::string text = code_text(*chosen);
    if (std::find(codes.begin(), codes.end(), text) == codes.end()) codes.push_back(text);
  }
  for (const auto& text : codes) result.code += (result.code.empty() ? "" : ", ") + text;
  return result;
}

}  // namespace kb
