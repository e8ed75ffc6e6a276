// Which of a library's CUDA code a device runs, chosen as the driver chooses it, and how a results
// row names it. A library holds, per translation unit, machine code for real architectures (a
// cubin per "sm_XX") and PTX for virtual ones ("compute_XX"), which the driver compiles at load
// (JIT). The choice is a pure function of the code and the device's compute capability, so it is
// known before anything loads and is tested without a GPU; tests/gpu holds it to the driver's.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kb {

struct ComputeCapability {
  int major = 0, minor = 0;
  int number() const { return major * 10 + minor; }  // 9.0 -> 90, as sm_90 numbers it
};

// "9.0" -> {9, 0}; nothing for an empty or malformed text.
std::optional<ComputeCapability> parse_compute_capability(const std::string& text);

// One piece of code for one architecture.
struct CodeImage {
  enum class Kind { machine, ptx };
  Kind kind = Kind::machine;
  int arch = 0;       // 90 for sm_90 and compute_90
  char variant = 0;   // 'a' (arch-specific: runs on that compute capability alone), 'f' (family-
                      // specific: on those of its major version at or above it), or 0
  // Who made it, where the file says: "cuda 13.0" (a cubin's toolkit note), "ptx 9.0" (a PTX's ISA
  // version); "" when it does not (a compressed cubin, a declared architecture).
  std::string made_by;

  bool operator==(const CodeImage& other) const;
};

// "sm_90a", "compute_80".
std::string arch_name(const CodeImage& image);

// The architectures a descriptor's cuda_archs lists ("sm_90,compute_90", "sm_90a"): what a plugin
// declares it was built for. Anything else in the list is skipped.
std::vector<CodeImage> parse_arch_list(const std::string& cuda_archs);

// "sm_90, sm_90a, compute_90": each architecture once, machine code before PTX, each ascending.
std::string arch_list_text(std::vector<CodeImage> images);

// What the driver is told by the environment the workers inherit: CUDA_FORCE_PTX_JIT=1 makes it
// compile PTX even where machine code would run; CUDA_DISABLE_PTX_JIT=1 forbids compiling PTX.
struct JitPolicy {
  bool forced = false, disabled = false;
};
JitPolicy jit_policy_from_environment();

// The image the driver loads from the code of one translation unit on a device: machine code for
// the device's own architecture, else the newest machine code of its major version below it (an
// 'a' cubin only on its own architecture, an 'f' one within its family); only where there is none,
// the newest PTX not newer than the device, which the driver compiles. Nothing when no image runs.
std::optional<CodeImage> choose_image(const std::vector<CodeImage>& unit, ComputeCapability device,
                                      JitPolicy jit = {});

// A results row's `code` cell: "sm_90", "sm_90a (cuda 13.0)", "ptx-jit compute_80 (ptx 9.0)".
std::string code_text(const CodeImage& chosen);

// A `code` cell the driver compiled from PTX at load.
bool jit_compiled(const std::string& code);

// Who made a `code` cell's code ("cuda 13.0" of "sm_90 (cuda 13.0)"); "" where the cell does not
// say.
std::string code_made_by(const std::string& code);

}  // namespace kb
