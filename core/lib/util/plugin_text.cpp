#include "util/plugin_text.hpp"

#include "util/utf8.hpp"

#include <cstring>

namespace kb {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool control(std::string_view sequence) {
  const auto lead = static_cast<unsigned char>(sequence[0]);
  if (sequence.size() == 1) return (lead < 0x20 && lead != '\t' && lead != '\n' && lead != '\r') || lead == 0x7F;
  // C1 controls, U+0080..U+009F: C2 80..C2 9F.
  return sequence.size() == 2 && lead == 0xC2 && static_cast<unsigned char>(sequence[1]) < 0xA0;
}

}  // namespace

std::string clean_text(std::string_view bytes) {
  std::string text;
  text.reserve(bytes.size());
  while (!bytes.empty()) {
    const std::size_t length = utf8_sequence_length(bytes);
    if (length == 0 || control(bytes.substr(0, length))) {
      text += kReplacement;
      bytes.remove_prefix(length == 0 ? 1 : length);
    } else {
      text += bytes.substr(0, length);
      bytes.remove_prefix(length);
    }
  }
  return text;
}

std::string plugin_text(const char* text, std::size_t capacity) {
  if (text == nullptr) return "";
  return clean_text(std::string_view(text, strnlen(text, capacity)));
}

}  // namespace kb
