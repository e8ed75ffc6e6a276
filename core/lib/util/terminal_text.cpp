#include "util/terminal_text.hpp"

#include "util/utf8.hpp"

#include <cstdio>

namespace kb {
namespace {

// Characters that change what a terminal shows without being seen: C0 and C1 controls, DEL, the
// byte-order mark (an invisible first character of a Windows file), and the bidirectional
// embeddings, overrides and isolates that reorder the text around them.
bool invisible(unsigned c) {
  return c < 0x20 || (c >= 0x7F && c < 0xA0) || c == 0xFEFF || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069);
}

std::string escape_of(unsigned c) {
  switch (c) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
  }
  char text[16];
  std::snprintf(text, sizeof text, c < 0x100 ? "\\x%02x" : "\\u%04x", c);
  return text;
}

}  // namespace

std::string terminal_text(std::string_view bytes, bool keep_newlines) {
  std::string text;
  text.reserve(bytes.size());
  while (!bytes.empty()) {
    const std::size_t length = utf8_sequence_length(bytes);
    if (length == 0) {
      text += escape_of(static_cast<unsigned char>(bytes.front()));
      bytes.remove_prefix(1);
      continue;
    }
    const std::string_view sequence = bytes.substr(0, length);
    const unsigned c = utf8_code_point(sequence);
    if (invisible(c) && !(keep_newlines && c == '\n')) {
      text += escape_of(c);
    } else {
      text += sequence;
    }
    bytes.remove_prefix(length);
  }
  return text;
}

TerminalFilter::int_type TerminalFilter::overflow(int_type ch) {
  if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
  const char c = traits_type::to_char_type(ch);
  return xsputn(&c, 1) == 1 ? ch : traits_type::eof();
}

// Each write is filtered whole: kbench writes a character sequence in one piece, so a piece never
// ends inside a UTF-8 sequence that the next one completes.
std::streamsize TerminalFilter::xsputn(const char* text, std::streamsize count) {
  const std::string shown = terminal_text(std::string_view(text, static_cast<std::size_t>(count)),
                                          /*keep_newlines=*/true);
  const auto size = static_cast<std::streamsize>(shown.size());
  return target_->sputn(shown.data(), size) == size ? count : 0;
}

}  // namespace kb
