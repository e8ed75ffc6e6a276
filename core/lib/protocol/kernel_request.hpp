// The request to check or build a kernel file (`kernel`): to the probe, which checks the file's
// operands against its family's library, and to the compile child, which builds its code for the
// cases. The file as the run read it (the child refuses a file whose SHA-256 changed since), the
// strategy among the file's (a manifest may hold several), the device and the cases to build for,
// and the family: its library for the probe to load, its description for the compiler to bind to.
#pragma once

#include "case/case_request.hpp"
#include "plugin/plugin_info.hpp"
#include "protocol/record.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kb {

struct KernelFileRequest {
  std::string file, strategy, sha256;
  int device = -1;
  std::vector<CaseRequest> cases;
  std::string family_file;
  std::optional<PluginInfo> family;
};

// The request for `kernel`'s file, strategy and content on `device`, for `cases`; the family is the
// caller's to add (its library for the probe, its description for the compiler).
KernelFileRequest kernel_request_for(const PluginInfo& kernel, const std::vector<CaseRequest>& cases,
                                     int device);

Record encode_kernel_request(const KernelFileRequest& request);
// A ProtocolError names a missing, malformed or unknown field, a case among them included.
KernelFileRequest decode_kernel_request(const Record& record);

}  // namespace kb
