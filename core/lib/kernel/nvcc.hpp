// nvcc, run as its own process: how a .cu with host code and host includes (<cstdio>, the CUDA
// samples' helpers, <cublas_v2.h>) is compiled as its author compiled it, device code only, to a
// cubin for the device. Also kbench's default compiler for any .cu where the toolkit has it: NVRTC
// (CUDA 13.0) addresses shared memory with 64-bit pointers where nvcc uses 32-bit ones, which
// costs a shared-memory-heavy kernel instructions (docs/kernel-files.md).
#pragma once

#include <string>
#include <vector>

namespace kb {

class Nvcc {
 public:
  // The compiler, found once per process: KBENCH_NVCC, else the toolkit the build used, else
  // $CUDA_HOME/bin/nvcc; null with the reason in `why` when there is none that runs.
  static const Nvcc* instance(std::string* why);

  const std::string& path() const { return path_; }
  const std::string& version() const { return version_; }  // "13.0.88"

  struct Result {
    bool ok = false;
    std::string log;    // the compiler's messages
    std::string cubin;  // the machine code
  };
  // Compiles `source` (a .cu text that includes the kernel file) with `options` to a cubin, in
  // a folder of its own under $TMPDIR; `prelude` is pre-included (-include).
  Result compile(const std::string& source, const std::string& prelude,
                 const std::vector<std::string>& options) const;

 private:
  std::string path_, version_;
};

}  // namespace kb
