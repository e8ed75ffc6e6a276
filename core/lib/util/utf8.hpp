// Reading UTF-8 one character at a time, strictly (RFC 3629): the untrusted-text filters
// (plugin_text, terminal_text) decide per character, and agree on what a character is.
#pragma once

#include <cstddef>
#include <string_view>

namespace kb {

// The length of the well-formed UTF-8 sequence at the start of `s` (no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when it starts with an invalid byte.
std::size_t utf8_sequence_length(std::string_view s);

// The code point of one well-formed sequence (`sequence` as utf8_sequence_length measured it).
unsigned utf8_code_point(std::string_view sequence);

}  // namespace kb
