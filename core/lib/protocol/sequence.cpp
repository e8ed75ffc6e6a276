#include "protocol/sequence.hpp"

#include <cerrno>
#include <cstdlib>

namespace kb {
namespace {

constexpr const char* kField = "seq";

}  // namespace

void set_sequence(Record& fields, std::uint64_t sequence) {
  fields[kField] = std::to_string(sequence);
}

std::optional<std::uint64_t> take_sequence(Record& fields) {
  const auto it = fields.find(kField);
  if (it == fields.end()) return std::nullopt;
  const std::string text = it->second;
  fields.erase(it);
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) return std::nullopt;
  return value;
}

}  // namespace kb
