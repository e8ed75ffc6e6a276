// kbench's own strategy for a kernel file: a version 3 KernelPlugin whose prepare builds (or
// finds in the cache), loads and checks the case's variant, works out its launch from the
// manifest and binds the family's buffers to the kernel's parameters, and whose run enqueues
// that one launch (cudaLaunchKernelExC, with a cluster where the manifest asks for one). The
// worker runs it exactly as it runs a version 3 .so: the family draws, poisons and checks.
//
// Also what the probe checks before a run (check_kernel_file): every variant built, in parallel,
// and loaded where there is a device; every case's launch formed.
#pragma once

#include "case/case_request.hpp"
#include "kernel/code_cache.hpp"
#include "kernel/kernel_build.hpp"
#include "kernel/kernel_module.hpp"
#include "plugin/kernel_manifest.hpp"

#include <kbench/plugin.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kb {

// A kb_case as a request (the strategy's side of the ABI).
CaseRequest request_of(const kb_case& c);

class KernelFileStrategy {
 public:
  // One per process: its hooks reach it through a static pointer.
  KernelFileStrategy(std::shared_ptr<const KernelManifest> manifest, int device, CodeCache cache);
  ~KernelFileStrategy();
  KernelFileStrategy(const KernelFileStrategy&) = delete;
  KernelFileStrategy& operator=(const KernelFileStrategy&) = delete;

  const KernelPlugin& plugin() const { return plugin_; }

  // How the code of a case's variant was made, for its row's kernel_compiler column: the
  // compiler, its version and options, and the entry ("nvrtc 13.0 -arch=sm_90 -std=c++17, with
  // typedef float T, entry transpose_tile"); "" when it could not be built.
  std::string compiler(const CaseRequest& request);

 private:
  struct Variant;  // a built and loaded variant, or why it is not
  struct CaseState;
  Variant& variant(const CaseRequest& request);

  static kb_status prepare(const kb_case* c, const kb_buffers* buffers, void** state,
                           kb_message* message);
  static kb_status run(void* state, const kb_case* c, const kb_buffers* buffers, void* stream,
                       kb_launch_config* config, kb_message* message);
  static void release(void* state);

  std::shared_ptr<const KernelManifest> manifest_;
  int device_;
  int sms_ = 0;
  CodeCache cache_;
  BuildTarget target_;
  std::string ops_;
  KernelPlugin plugin_{};
  std::map<std::string, std::unique_ptr<Variant>> variants_;  // by KernelVariant::key()
};

// What check_kernel_file found: a line to show, and the cases (by index) whose launch cannot be
// formed (a dimension out of range, a division by zero): `unsupported`, with the reason.
struct KernelCheck {
  std::string summary;
  std::map<std::size_t, std::string> unsupported;
};

// Builds every variant `cases` need (in parallel, on up to the host's cores), loads each on
// `device` when there is one, and forms every case's launch there. KernelBuildError for the
// first variant that cannot be built or loaded, or a launch above the device's shared memory.
// `progress` is told of each variant as it is done.
KernelCheck check_kernel_file(const KernelManifest& manifest, const std::vector<CaseRequest>& cases,
                              int device, const CodeCache& cache,
                              const std::function<void(const std::string&)>& progress);

}  // namespace kb
