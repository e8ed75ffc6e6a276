// What became of a case, as one word: the `status` column of a results row, the worker's result
// record, the sweep's closing counts and the verdicts all name a status from this one list.
#pragma once

#include <kbench/plugin.h>

#include <array>
#include <optional>
#include <string>

namespace kb {

// In the order the sweep's closing line counts them.
enum class CaseStatus { ok, verify_failed, implausible, unsupported, error, crashed, timeout, oom };

inline constexpr std::array<CaseStatus, 8> kCaseStatuses = {
    CaseStatus::ok,    CaseStatus::verify_failed, CaseStatus::implausible, CaseStatus::unsupported,
    CaseStatus::error, CaseStatus::crashed,       CaseStatus::timeout,     CaseStatus::oom};

const char* status_name(CaseStatus status);
std::optional<CaseStatus> parse_status(const std::string& name);
// A hook's kb_status as the case's status.
CaseStatus status_of(kb_status status);

}  // namespace kb
