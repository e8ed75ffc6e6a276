// A kernel file's code for one variant (data type, operation, knobs): a .cu compiled by NVRTC
// (or found in the cache), a PTX, cubin or fatbin as it is; held to the manifest's parameter list
// wherever PTX shows it. No device is needed: without one a .cu is compiled to PTX for a virtual
// architecture, which checks everything but the load.
#pragma once

#include "kernel/code_cache.hpp"
#include "plugin/kernel_manifest.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace kb {

// What cannot be built, loaded or launched as the manifest says: a one-line reason.
class KernelBuildError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the code is built for.
struct BuildTarget {
  std::string arch;        // "sm_90" for the device; "compute_90" without one (PTX alone)
  int driver_version = 0;  // cudaDriverGetVersion (0: no driver)
  bool device = false;
};
// For CUDA device `device` (its compute capability), or without one (device < 0, or none here)
// the build's default virtual architecture.
BuildTarget build_target(int device);

struct BuiltKernel {
  std::string image;     // what the driver loads: cubin, fatbin, or PTX with its NUL
  std::string ptx;       // the PTX, where there is one (a .cu's, a .ptx)
  std::string entry;     // the kernel's symbol in the image
  std::string compiler;  // how it was made, for the row: "nvrtc 13.0 -arch=sm_90 -std=c++17 -DT=float"
  bool cached = false;   // found in the cache, not compiled now
  double seconds = 0;    // the compile's wall time
  std::string cache_note;  // why it could not be cached, when it could not
};

// The options NVRTC gets for a variant: the architecture (unless the manifest's options name
// one), C++17, the kernel's folder and the toolkit's headers on the include path, the variant's
// and the manifest's options.
std::vector<std::string> nvrtc_options(const KernelManifest& manifest, const KernelVariant& variant,
                                       const BuildTarget& target);

// The cache key of a .cu variant: the source's hash and those of the files it includes with
// quotes from its folder, the entry, the options, NVRTC's and the driver's versions.
std::string cache_key(const KernelManifest& manifest, const KernelVariant& variant,
                      const std::vector<std::string>& options, const std::string& nvrtc_version,
                      int driver_version);

// The variant's code; KernelBuildError says why there is none (NVRTC missing, a compile error
// with the compiler's first error lines, no such entry, parameters that differ from the
// manifest's).
BuiltKernel build_kernel(const KernelManifest& manifest, const KernelVariant& variant,
                         const BuildTarget& target, const CodeCache& cache);

}  // namespace kb
