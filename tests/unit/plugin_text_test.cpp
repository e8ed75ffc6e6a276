// Text from a plugin's buffers: never read past them, and only valid UTF-8 without control
// characters kept (the rows of such plugins, read back, are in tests/process).
#include "util/plugin_text.hpp"

#include <kbench/plugin.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

namespace kb {
namespace {

const std::string kReplacement = "\xEF\xBF\xBD";

TEST(PluginText, KeepsValidUtf8AndReplacesEverythingElse) {
  EXPECT_EQ(clean_text("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
  EXPECT_EQ(clean_text("tab\tline\nreturn\r"), "tab\tline\nreturn\r");  // the CSV escapes these
  EXPECT_EQ(clean_text(std::string("nul\0bell\x07" "esc\x1b" "del\x7f", 17)),
            "nul" + kReplacement + "bell" + kReplacement + "esc" + kReplacement + "del" +
                kReplacement);
  EXPECT_EQ(clean_text("\xFF\xFE"), kReplacement + kReplacement);
  EXPECT_EQ(clean_text("\xC2\x85"), kReplacement);                        // C1 control (NEL)
  EXPECT_EQ(clean_text("\xC0\xAF"), kReplacement + kReplacement);         // overlong '/'
  EXPECT_EQ(clean_text("\xED\xA0\x80"), kReplacement + kReplacement + kReplacement);  // surrogate
  EXPECT_EQ(clean_text("\xF4\x90\x80\x80").find("\xF4"), std::string::npos);  // above U+10FFFF
  EXPECT_EQ(clean_text("cut \xE2\x82"), "cut " + kReplacement + kReplacement);  // truncated
}

TEST(PluginText, NeverReadsPastTheBuffer) {
  struct {
    char buffer[8];
    char beyond[8];
  } memory;
  std::memset(memory.buffer, 'a', sizeof memory.buffer);  // no NUL anywhere
  std::memset(memory.beyond, 'b', sizeof memory.beyond);
  EXPECT_EQ(plugin_text(memory.buffer), "aaaaaaaa");
  EXPECT_EQ(plugin_text(memory.buffer, 3), "aaa");
  EXPECT_EQ(plugin_text(nullptr, 10), "");
  kb_message message{};
  std::snprintf(message.text, sizeof message.text, "short");
  EXPECT_EQ(plugin_text(message.text), "short");
}

}  // namespace
}  // namespace kb
