// One case as the parent sends it to a worker.
#pragma once

#include "case/case_spec.hpp"

#include <kbench/plugin.h>

#include <cstdint>
#include <string>

namespace kb {

struct CaseRequest {
  kb_dtype dtype = KB_DTYPE_F32;
  std::string op;
  Extent shape;
  Block block;
  std::uint64_t seed = 0;
  int device = 0;
  bool verbose = false;
  std::string params;  // "tile=256;vec=4" (format_params), "" when the plugin has none

  kb_case to_abi() const;  // op and params point into this request: keep it alive while it runs
};

}  // namespace kb
