#include "case/case_status.hpp"

namespace kb {

const char* status_name(CaseStatus status) {
  switch (status) {
    case CaseStatus::ok: return "ok";
    case CaseStatus::verify_failed: return "verify_failed";
    case CaseStatus::implausible: return "implausible";
    case CaseStatus::unsupported: return "unsupported";
    case CaseStatus::error: return "error";
    case CaseStatus::crashed: return "crashed";
    case CaseStatus::timeout: return "timeout";
    case CaseStatus::oom: return "oom";
  }
  return "error";
}

std::optional<CaseStatus> parse_status(const std::string& name) {
  for (const CaseStatus status : kCaseStatuses) {
    if (name == status_name(status)) return status;
  }
  return std::nullopt;
}

CaseStatus status_of(kb_status status) {
  switch (status) {
    case KB_OK: return CaseStatus::ok;
    case KB_UNSUPPORTED: return CaseStatus::unsupported;
    case KB_OOM: return CaseStatus::oom;
    case KB_VERIFY_FAILED: return CaseStatus::verify_failed;
    case KB_ERROR: break;
  }
  return CaseStatus::error;
}

}  // namespace kb
