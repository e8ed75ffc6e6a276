// A kernel file's code for one variant (data type, operation, knobs): a .cu compiled by nvcc or
// NVRTC (or found in the cache), a PTX, cubin or fatbin as it is; each launch's kernel found in
// it and held to the manifest's parameter list wherever the PTX or the cubin shows it. No device
// is needed: without one nvcc compiles for the build's architecture and NVRTC to PTX for its
// virtual architecture, which checks everything but the load.
//
// Compiling happens before a run, in `kbench compile` (build_kernel), never in the worker that
// times the kernel: the worker only finds the code the compile step built (load_built_kernel).
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
  std::string ptx;       // the PTX, where there is one (NVRTC's, a .ptx)
  std::vector<std::string> entries;  // each launch's kernel symbol in the image
  // How it was made, for the row: "nvcc 13.0.88 -cubin -arch=sm_90 -std=c++17, with typedef
  // float T" or "nvrtc 13.0 -arch=sm_90 -std=c++17 ...".
  std::string compiler;
  bool cached = false;   // found in the cache, not compiled now
  double seconds = 0;    // the compile's wall time
  std::string cache_note;  // why it could not be cached, when it could not
};

enum class KernelCompiler { nvcc, nvrtc };
const char* compiler_name(KernelCompiler compiler);
// The compiler of a .cu: the manifest's "compiler", else KBENCH_KERNEL_COMPILER (nvcc or nvrtc),
// else nvcc where the toolkit has it, else NVRTC. KernelBuildError for a named one missing.
KernelCompiler choose_compiler(const KernelManifest& manifest);

// The options a compiler gets for a variant: the architecture (unless the manifest's options name
// one), C++17, the kernel's folder and the toolkit's headers (with CCCL's, which nvcc adds itself)
// on the include path, the variant's and the manifest's options. Both compilers' defaults are
// the same (-O3, no fast math, IEEE division and square root, FMA contraction).
std::vector<std::string> compile_options(KernelCompiler compiler, const KernelManifest& manifest,
                                         const KernelVariant& variant, const BuildTarget& target);

// The cache key of a .cu variant's code: the source's hash and those of the files it includes
// with quotes from its folder, the entries, the compiler and its version, the options, the
// driver's version.
std::string cache_key(const KernelManifest& manifest, const KernelVariant& variant,
                      const std::string& compiler, const std::vector<std::string>& options,
                      int driver_version);
// The same without the compiler: what the worker, which runs none, can compute.
std::string variant_key(const KernelManifest& manifest, const KernelVariant& variant,
                        const BuildTarget& target);

// The variant's code, compiled or found in the cache; KernelBuildError says why there is none
// (no compiler, a compile error with the compiler's first error lines, no such entry, parameters
// that differ from the manifest's).
BuiltKernel build_kernel(const KernelManifest& manifest, const KernelVariant& variant,
                         const BuildTarget& target, const CodeCache& cache);

// For a PTX or a fatbin, with the target's device current: its machine code for the device, made
// now by the driver's JIT and kept in the cache, so that a worker loads a cubin and JIT-compiles
// nothing; `built` becomes that cubin. Nothing for other formats. KernelBuildError when the JIT
// fails.
void compile_for_device(const KernelManifest& manifest, const KernelVariant& variant,
                        const BuildTarget& target, const CodeCache& cache, BuiltKernel& built);

// The worker's side: the code build_kernel (and compile_for_device) made for the variant — a .cu's,
// and on a device a PTX's or fatbin's, from the cache — without any compiler. KernelBuildError
// when it was not built before the run.
BuiltKernel load_built_kernel(const KernelManifest& manifest, const KernelVariant& variant,
                              const BuildTarget& target, const CodeCache& cache);

}  // namespace kb
