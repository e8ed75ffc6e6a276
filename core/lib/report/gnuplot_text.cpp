#include "report/gnuplot_text.hpp"

#include "util/plugin_text.hpp"

namespace kb {
namespace {

bool control(char ch) { return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F; }

}  // namespace

std::string gnuplot_string(const std::string& text) {
  std::string out = "'";
  for (char ch : clean_text(text)) {
    if (ch == '\'') out += "''";
    else out += control(ch) ? ' ' : ch;
  }
  return out + "'";
}

std::string gnuplot_data_text(const std::string& text) {
  std::string out;
  for (char ch : clean_text(text)) out += control(ch) ? ' ' : ch == '"' ? '\'' : ch;
  return out;
}

}  // namespace kb
