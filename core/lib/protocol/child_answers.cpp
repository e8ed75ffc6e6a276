#include "protocol/child_answers.hpp"

#include "protocol/field_reader.hpp"

#include <charconv>
#include <cstring>
#include <system_error>

namespace kb {
namespace {

constexpr const char* kUnsupported = "unsupported.";

}  // namespace

Record encode_step(const std::string& name) { return {{"name", name}}; }

std::string decode_step(const Record& record) { return only_text(record, "step", "name"); }

Record encode_reason(const std::string& reason) { return {{"reason", reason}}; }

std::string decode_reason(const Record& record) { return only_text(record, "refusal", "reason"); }

Record encode_accepts_answer(const AcceptsAnswer& answer) {
  return {{"accepted", answer.accepted ? "1" : "0"}, {"why", answer.why}};
}

AcceptsAnswer decode_accepts_answer(const Record& record) {
  FieldReader in(record, "verdict");
  AcceptsAnswer answer;
  answer.accepted = in.flag("accepted");
  answer.why = in.text("why");
  in.expect_all_read();
  return answer;
}

Record encode_built(const KernelCheckAnswer& built) {
  Record r{{"summary", built.summary}};
  for (const auto& [index, reason] : built.unsupported) {
    r[kUnsupported + std::to_string(index)] = reason;
  }
  return r;
}

KernelCheckAnswer decode_built(const Record& record, std::size_t cases) {
  FieldReader in(record, "built");
  KernelCheckAnswer built;
  built.summary = in.text("summary");
  const std::size_t prefix = std::strlen(kUnsupported);
  for (const auto& field : record) {
    const std::string& key = field.first;
    if (key.compare(0, prefix, kUnsupported) != 0) continue;
    std::size_t index = 0;
    const char* first = key.data() + prefix;
    const char* last = key.data() + key.size();
    const auto [stop, fault] = std::from_chars(first, last, index);
    if (first == last || fault != std::errc() || stop != last) {
      in.refuse("with '" + key + "', which names no case");
    }
    if (index >= cases) {
      in.refuse("with '" + key + "', beyond the " + std::to_string(cases) + " cases asked about");
    }
    built.unsupported[index] = in.text(key);
  }
  in.expect_all_read();
  return built;
}

}  // namespace kb
