// CUPTI, the CUDA Profiling Tools Interface (libcupti.so, shipped with the toolkit), loaded at run
// time as NVML is (device/gpu_monitor.hpp): kbench builds without linking it, and a machine
// without it, or with one too old, runs everything else and leaves the CUPTI columns empty
// (`cupti_us`, `cupti_kernels`, `counters`). measure/cupti_clock.hpp traces kernels with it,
// measure/counter_profiler.hpp reads hardware counters.
#pragma once

#include <string>
#include <vector>

namespace kb {

class CuptiLibrary {
 public:
  // The process's one copy, loaded at the first call. Where it is looked for, in order:
  // $KBENCH_CUPTI_LIBRARY when set (a path; `none` never loads it), the loader's search path
  // (libcupti.so.13, libcupti.so: LD_LIBRARY_PATH, the ld.so cache), then the toolkit kbench was
  // built with, $CUDA_HOME and /usr/local/cuda (lib64, extras/CUPTI/lib64).
  static const CuptiLibrary& get();
  // The first of `candidates` (file names or paths) that loads and is recent enough; none: why_not()
  // names the first candidate and the loader's error.
  explicit CuptiLibrary(const std::vector<std::string>& candidates);
  ~CuptiLibrary();

  bool loaded() const { return handle_ != nullptr; }
  // Why it is not: one line.
  const std::string& why_not() const { return why_not_; }
  const std::string& path() const { return path_; }
  unsigned version() const { return version_; }

  // A function of the library; null when absent (or the library is not loaded).
  void* symbol(const char* name) const;
  template <typename F>
  F function(const char* name) const {
    return reinterpret_cast<F>(symbol(name));
  }
  // "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" for a CUptiResult, or its number.
  std::string result_text(int result) const;
  // Loads a library of the same folder (the profiler's libnvperf_host.so and libnvperf_target.so,
  // which CUPTI itself opens by name only): false when it cannot.
  bool load_beside(const char* file) const;

  CuptiLibrary(const CuptiLibrary&) = delete;
  CuptiLibrary& operator=(const CuptiLibrary&) = delete;

 private:
  void* handle_ = nullptr;
  std::string path_, why_not_;
  unsigned version_ = 0;
};

// Where CUPTI is looked for, in order, given the environment's KBENCH_CUPTI_LIBRARY and CUDA_HOME
// (null when unset): none for KBENCH_CUPTI_LIBRARY=none.
std::vector<std::string> cupti_candidates(const char* configured, const char* cuda_home);

// Why kbench may not use `library` in this process, or "": it is not loaded (its why_not()), or a
// profiling tool is attached (Nsight Systems and Compute, the compute sanitizer set
// CUDA_INJECTION64_PATH), which kbench's own CUPTI use would disturb.
std::string why_unusable(const CuptiLibrary& library);

}  // namespace kb
