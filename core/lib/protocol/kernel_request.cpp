#include "protocol/kernel_request.hpp"

#include "plugin/kernel_manifest.hpp"
#include "protocol/codec.hpp"
#include "protocol/field_reader.hpp"

#include <sstream>

namespace kb {

KernelFileRequest kernel_request_for(const PluginInfo& kernel, const std::vector<CaseRequest>& cases,
                                     int device) {
  KernelFileRequest request;
  request.file = kernel.file;
  request.strategy = kernel.name;
  if (kernel.kernel) request.sha256 = kernel.kernel->sha256;
  request.device = device;
  request.cases = cases;
  return request;
}

Record encode_kernel_request(const KernelFileRequest& request) {
  std::string cases;
  for (const CaseRequest& c : request.cases) cases += encode_record("case", encode_case(c));
  Record r{{"file", request.file},
           {"strategy", request.strategy},
           {"sha256", request.sha256},
           {"device", std::to_string(request.device)},
           {"cases", cases},
           {"family_file", request.family_file}};
  if (request.family) r["family"] = encode_record("family", encode_plugin(*request.family));
  return r;
}

KernelFileRequest decode_kernel_request(const Record& record) {
  FieldReader in(record, "kernel");
  KernelFileRequest request;
  request.file = in.text("file");
  request.strategy = in.text("strategy");
  request.sha256 = in.text("sha256");
  request.device = static_cast<int>(in.integer("device"));
  std::istringstream lines(in.text("cases"));
  std::string kind;
  for (std::string line; std::getline(lines, line);) {
    Record c;
    if (!decode_record(line, kind, c) || kind != "case") in.refuse("with a case that is none");
    request.cases.push_back(decode_case(c));
  }
  request.family_file = in.text("family_file");
  if (in.has("family")) {
    Record family;
    if (!decode_record(in.text("family"), kind, family) || kind != "family") {
      in.refuse("with a family that is none");
    }
    request.family = decode_plugin(family);
  }
  in.expect_all_read();
  return request;
}

}  // namespace kb
