#include "protocol/field_reader.hpp"

#include <cerrno>
#include <cstdlib>

namespace kb {

const std::string& FieldReader::text(const std::string& key) {
  const auto it = record_.find(key);
  if (it == record_.end()) refuse("without '" + key + "'");
  read_.insert(key);
  return it->second;
}

double FieldReader::number(const std::string& key) {
  const std::string& value = text(key);
  char* end = nullptr;
  const double parsed = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0') malformed(key, value);
  return parsed;
}

long long FieldReader::integer(const std::string& key) {
  const std::string& value = text(key);
  char* end = nullptr;
  errno = 0;
  const long long parsed = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno == ERANGE) malformed(key, value);
  return parsed;
}

unsigned long long FieldReader::unsigned_integer(const std::string& key) {
  const std::string& value = text(key);
  char* end = nullptr;
  errno = 0;
  const unsigned long long parsed = std::strtoull(value.c_str(), &end, 10);
  if (value.empty() || value[0] == '-' || *end != '\0' || errno == ERANGE) malformed(key, value);
  return parsed;
}

std::optional<double> FieldReader::optional_number(const std::string& key) {
  return has(key) ? std::optional<double>(number(key)) : std::nullopt;
}

std::vector<long long> FieldReader::integers(const std::string& key, std::size_t count) {
  const std::string& value = text(key);
  std::vector<long long> values;
  const char* at = value.c_str();
  while (values.size() < count) {
    char* end = nullptr;
    errno = 0;
    const long long parsed = std::strtoll(at, &end, 10);
    if (end == at || errno == ERANGE) break;
    values.push_back(parsed);
    at = end;
    if (values.size() < count && *at++ != ',') break;
  }
  if (values.size() != count || *at != '\0') malformed(key, value);
  return values;
}

std::vector<double> FieldReader::numbers(const std::string& key) {
  const std::string& value = text(key);
  std::vector<double> values;
  if (value.empty()) return values;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = value.find(',', start);
    const std::string item = value.substr(start, comma - start);
    char* end = nullptr;
    const double parsed = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0') malformed(key, value);
    values.push_back(parsed);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return values;
}

void FieldReader::expect_all_read() const {
  for (const auto& [key, value] : record_) {
    if (!read_.count(key)) refuse("with an unknown field '" + key + "'");
  }
}

void FieldReader::refuse(const std::string& what) const {
  throw ProtocolError(std::string(kind_) + " record " + what);
}

void FieldReader::malformed(const std::string& key, const std::string& value) const {
  throw ProtocolError(std::string(kind_) + " record: '" + key + "' is not a number: '" + value +
                      "'");
}

std::string only_text(const Record& record, const char* kind, const char* key) {
  FieldReader in(record, kind);
  std::string text = in.text(key);
  in.expect_all_read();
  return text;
}

}  // namespace kb
