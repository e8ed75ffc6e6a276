// Reads the fields of one record, each once: a missing or malformed field, or one left unread at
// the end, is a ProtocolError naming the record kind and the field.
#pragma once

#include "protocol/codec.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kb {

class FieldReader {
 public:
  FieldReader(const Record& record, const char* kind) : record_(record), kind_(kind) {}

  bool has(const std::string& key) const { return record_.count(key) != 0; }
  const std::string& text(const std::string& key);
  // ERANGE is no error here: the writer formatted the number, subnormals included ("inf" and
  // "nan" too), and strtod reads it back exactly.
  double number(const std::string& key);
  long long integer(const std::string& key);
  unsigned long long unsigned_integer(const std::string& key);
  std::optional<double> optional_number(const std::string& key);
  // `count` comma-separated integers: "132,2,1".
  std::vector<long long> integers(const std::string& key, std::size_t count);
  // Comma-separated doubles, any number of them ("" is none).
  std::vector<double> numbers(const std::string& key);
  bool flag(const std::string& key) { return text(key) == "1"; }
  void expect_all_read() const;

  [[noreturn]] void refuse(const std::string& what) const;

 private:
  [[noreturn]] void malformed(const std::string& key, const std::string& value) const;

  const Record& record_;
  const char* kind_;
  std::set<std::string> read_;
};

// The text of a record that holds `key` and nothing else.
std::string only_text(const Record& record, const char* kind, const char* key);

}  // namespace kb
