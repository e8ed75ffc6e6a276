// Machine code for the current device from a PTX or a fatbin, made by the driver's JIT linker
// (cuLinkCreate, cuLinkAddData, cuLinkComplete, reached through the runtime's
// cudaGetDriverEntryPointByVersion): what the compile step does before a run, so that a worker
// only ever loads a cubin and never JIT-compiles (its process may map no new code once a plugin
// is loaded).
#pragma once

#include <string>

namespace kb {

struct LinkedCode {
  std::string cubin;  // empty on failure
  std::string error;  // why, with the JIT's first error lines
};

// `image`: PTX text (its NUL is added) or a fatbin. A CUDA context must be current.
LinkedCode link_for_device(const std::string& image, bool fatbin);

}  // namespace kb
