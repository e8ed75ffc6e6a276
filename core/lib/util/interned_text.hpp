// Text kept once per process, however many rows hold it: a results file of millions of rows holds
// a few hundred plugins, GPUs, hosts and run ids, each written on every row. A Text is a 4-byte
// handle to its one copy and reads as a const std::string&. Interning is safe from several
// threads (the reader parses a file's parts in parallel); the copies live until the process ends.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace kb {

class Text {
 public:
  Text() = default;
  Text(std::string_view text);  // NOLINT: a Text is made wherever a string is given
  Text(const std::string& text) : Text(std::string_view(text)) {}  // NOLINT
  Text(const char* text) : Text(std::string_view(text)) {}          // NOLINT

  const std::string& str() const;
  operator const std::string&() const { return str(); }  // NOLINT

  bool empty() const { return id_ == 0; }
  std::size_t size() const { return str().size(); }
  const char* c_str() const { return str().c_str(); }
  std::size_t find(std::string_view what, std::size_t from = 0) const {
    return str().find(what, from);
  }
  std::size_t find(char what, std::size_t from = 0) const { return str().find(what, from); }
  std::size_t rfind(char what, std::size_t from = std::string::npos) const {
    return str().rfind(what, from);
  }
  std::string substr(std::size_t from, std::size_t count = std::string::npos) const {
    return str().substr(from, count);
  }
  int compare(std::string_view other) const { return std::string_view(str()).compare(other); }
  std::uint32_t id() const { return id_; }

  // The same text is the same handle.
  friend bool operator==(const Text& a, const Text& b) { return a.id_ == b.id_; }
  friend bool operator!=(const Text& a, const Text& b) { return a.id_ != b.id_; }
  friend bool operator<(const Text& a, const Text& b) { return a.str() < b.str(); }
  friend bool operator==(const Text& a, std::string_view b) { return a.str() == b; }
  friend bool operator!=(const Text& a, std::string_view b) { return a.str() != b; }
  friend bool operator==(std::string_view a, const Text& b) { return a == b.str(); }
  friend bool operator!=(std::string_view a, const Text& b) { return a != b.str(); }
  friend bool operator==(const Text& a, const std::string& b) { return a.str() == b; }
  friend bool operator!=(const Text& a, const std::string& b) { return a.str() != b; }
  friend bool operator==(const std::string& a, const Text& b) { return a == b.str(); }
  friend bool operator!=(const std::string& a, const Text& b) { return a != b.str(); }
  friend bool operator==(const Text& a, const char* b) { return a.str() == b; }
  friend bool operator!=(const Text& a, const char* b) { return a.str() != b; }
  friend std::string operator+(const Text& a, const std::string& b) { return a.str() + b; }
  friend std::string operator+(const std::string& a, const Text& b) { return a + b.str(); }
  friend std::string operator+(const Text& a, const char* b) { return a.str() + b; }
  friend std::string operator+(const char* a, const Text& b) { return a + b.str(); }
  friend std::string operator+(const Text& a, char b) { return a.str() + b; }
  friend std::string operator+(char a, const Text& b) { return a + b.str(); }
  friend std::ostream& operator<<(std::ostream& out, const Text& t) { return out << t.str(); }

 private:
  std::uint32_t id_ = 0;  // 0: the empty text
};

}  // namespace kb

template <>
struct std::hash<kb::Text> {
  std::size_t operator()(const kb::Text& t) const noexcept {
    return std::hash<std::uint32_t>()(t.id());
  }
};
