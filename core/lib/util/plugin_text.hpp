// Text that crosses from a plugin (or any other untrusted source) into kbench's outputs. A plugin
// fills fixed buffers (kb_message, kb_verification.metrics) and may leave them without a NUL, and
// its strings may hold any bytes: every read is bounded by the buffer, and what comes out is valid
// UTF-8 without control characters, so it cannot tear a CSV row, a protocol record or a terminal.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kb {

// `bytes` as valid UTF-8: each invalid byte and each control character other than tab, line
// feed and carriage return (which the CSV and protocol layers escape) becomes U+FFFD.
std::string clean_text(std::string_view bytes);

// The NUL-terminated text at `text`, read no further than `capacity` bytes, cleaned; "" for null.
std::string plugin_text(const char* text, std::size_t capacity);

// A plugin-filled buffer, read no further than its end.
template <std::size_t N>
std::string plugin_text(const char (&buffer)[N]) {
  return plugin_text(buffer, N);
}

// The most bytes read from a plugin's descriptor strings (name, description, ...).
inline constexpr std::size_t kPluginStringCapacity = 4096;

}  // namespace kb
