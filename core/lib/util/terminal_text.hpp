// Text as a terminal may show it. kbench's lines echo what people and files gave it (an option's
// value, a CSV cell, a run id, a plugin's message): a carriage return, an escape sequence or a
// byte-order mark written raw would rewrite the line before it, recolour or clear the screen, or
// hide a character. Each is written visibly instead, as the C escape a person would type.
#pragma once

#include <streambuf>
#include <string>
#include <string_view>

namespace kb {

// `bytes` with every control character (but line feeds where `keep_newlines`), DEL, the C1
// controls, the byte-order mark, the bidirectional overrides and each byte that is not valid
// UTF-8 written as an escape: "\r", "\n", "\t", "\x1b", "\ufeff", "\u202e", "\xff".
std::string terminal_text(std::string_view bytes, bool keep_newlines = false);

// A stream buffer that passes everything written to it through terminal_text, keeping line
// feeds, to the buffer it wraps. Installed on std::cerr, it covers every line kbench writes there.
class TerminalFilter : public std::streambuf {
 public:
  explicit TerminalFilter(std::streambuf* target) : target_(target) {}

 protected:
  int_type overflow(int_type ch) override;
  std::streamsize xsputn(const char* text, std::streamsize count) override;
  int sync() override { return target_->pubsync(); }

 private:
  std::streambuf* target_;
};

}  // namespace kb
