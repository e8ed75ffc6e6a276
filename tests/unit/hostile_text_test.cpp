// Text from files and people reaches kbench's outputs as data: the functions that make
// it so (terminal_text, markdown_cell, gnuplot_string). The commands that use them:
// tests/process/hostile_text_output_test.cpp.
#include "report/gnuplot_text.hpp"
#include "util/markdown_table.hpp"
#include "util/terminal_text.hpp"

#include <gtest/gtest.h>

namespace {

// The number of pipes that separate cells (not escaped by a backslash).
int separators(const std::string& line) {
  int count = 0;
  for (std::size_t i = 0; i < line.size(); ++i) count += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
  return count;
}

TEST(HostileText, TerminalTextShowsEveryInvisibleCharacterAsItsEscape) {
  EXPECT_EQ(kb::terminal_text("\xEF\xBB\xBFsizes\r\x1b[2J\x07 caf\xC3\xA9 \xff\n"),
            "\\ufeffsizes\\r\\x1b[2J\\x07 caf\xC3\xA9 \\xff\\n");
  EXPECT_EQ(kb::terminal_text("a\xE2\x80\xAE" "b\nc", /*keep_newlines=*/true), "a\\u202eb\nc");
  EXPECT_EQ(kb::terminal_text("plain text, 8192x4096"), "plain text, 8192x4096");
}

TEST(HostileText, MarkdownCellsAndTitlesStayInTheirColumns) {
  kb::MarkdownTable table({"run", "a|b", "c\nd"}, 1);
  table.add_row({"x|y", "1\r\n2", "3\\|4"});
  const std::string text = table.str();
  std::size_t lines = 0;
  for (std::size_t start = 0; start < text.size(); ++lines) {
    const auto end = text.find('\n', start);
    EXPECT_EQ(separators(text.substr(start, end - start)), 4) << text;
    start = end + 1;
  }
  EXPECT_EQ(lines, 3u) << text;
  EXPECT_EQ(kb::markdown_cell("a|b\x1b"), "a\\|b\\x1b");
}

TEST(HostileText, GnuplotTextIsSingleQuotedAndOneLine) {
  EXPECT_EQ(kb::gnuplot_string("it's `id` $(id) @macro\nnext"), "'it''s `id` $(id) @macro next'");
  EXPECT_EQ(kb::gnuplot_data_text("a\tb\"c\nd"), "a b'c d");
}

}  // namespace
