// The integer formulas of kernel manifests: C's arithmetic on 64 bits, short-circuits, the
// functions, and every malformed or unevaluable formula refused with its reason.
#include "plugin/formula.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using kb::Formula;
using kb::FormulaError;

std::int64_t eval(const std::string& text, const kb::FormulaVariables& v = {}) {
  return Formula::parse(text).evaluate(v);
}

TEST(Formula, ComputesAsCDoesOn64Bits) {
  const std::vector<std::pair<std::string, std::int64_t>> cases = {
      {"42", 42},
      {"1 + 2 * 3", 7},
      {"(1 + 2) * 3", 9},
      {"7 / 2", 3},
      {"-7 / 2", -3},
      {"7 % 3", 1},
      {"-7 % 3", -1},
      {"1 - - 1", 2},
      {"+5", 5},
      {"10 - 2 - 3", 5},
      {"100 / 10 / 5", 2},
      {"cdiv(7, 2)", 4},
      {"cdiv(8, 2)", 4},
      {"cdiv(0, 32)", 0},
      {"cdiv(-7, 2)", -3},
      {"round_up(7, 4)", 8},
      {"round_up(8, 4)", 8},
      {"min(3, 1, 2)", 1},
      {"max(3, 1, 2)", 3},
      {"min(5)", 5},
      {"log2(1024)", 10},
      {"log2(1023)", 9},
      {"pow2(10)", 1024},
      {"1 < 2 && 3 > 2", 1},
      {"1 <= 1", 1},
      {"2 >= 3", 0},
      {"2 == 2", 1},
      {"2 != 2", 0},
      {"0 || 0", 0},
      {"0 || 7", 1},
      {"!0", 1},
      {"!5", 0},
      {"1 ? 5 : 6", 5},
      {"0 ? 5 : 6", 6},
      {"0 ? 1 : 0 ? 2 : 3", 3},
      {"1 + 2 < 4", 1},
      {"9223372036854775807", INT64_MAX},
      {"  cdiv( 8192 , 32 )  ", 256},
      {"6 & 3", 2},
      {"6 | 3", 7},
      {"6 ^ 3", 5},
      {"~0", -1},
      {"1 << 10", 1024},
      {"1024 >> 3", 128},
      {"-8 >> 1", -4},
      {"1 | 2 == 2", 1},      // == binds tighter than |, as in C
      {"3 & 1 && 2 | 0", 1},  // & and | bind tighter than &&
      {"1 + 1 << 2", 8},      // + binds tighter than <<
      {"1 << 2 < 5", 1},      // << binds tighter than <
      {"(1 << 4) - 1 & 5", 5},
      {"is_pow2(1024)", 1},
      {"is_pow2(1000)", 0},
      {"is_pow2(0)", 0},
      {"is_pow2(-4)", 0},
      {"(1000 & (1000 - 1)) == 0", 0},
  };
  for (const auto& [text, value] : cases) EXPECT_EQ(eval(text), value) << text;
}

TEST(Formula, AShiftOutOfRangeOrOverflowingIsAnError) {
  for (const char* text : {"1 << 64", "1 << -1", "1 >> 64", "4611686018427387904 << 1", "-1 << 2"}) {
    EXPECT_THROW(eval(text), FormulaError) << text;
  }
}

TEST(Formula, ReadsItsVariables) {
  const kb::FormulaVariables v = {{"rows", 33}, {"cols", 31}, {"bx", 32}, {"elem_bytes", 4}};
  EXPECT_EQ(eval("cdiv(cols, bx)", v), 1);
  EXPECT_EQ(eval("cdiv(rows, bx)", v), 2);
  EXPECT_EQ(eval("bx * (bx + 1) * elem_bytes", v), 32 * 33 * 4);
  const Formula f = Formula::parse("rows * cols + cdiv(rows, bx) * rows");
  EXPECT_EQ(f.names(), (std::vector<std::string>{"rows", "cols", "bx"}));
  EXPECT_TRUE(f.uses("bx"));
  EXPECT_FALSE(f.uses("cdiv"));  // a function, not a variable
  EXPECT_EQ(Formula::constant(12).evaluate({}), 12);
  EXPECT_EQ(Formula().evaluate({}), 0);
}

TEST(Formula, ShortCircuitsLikeC) {
  EXPECT_EQ(eval("0 && 1 / 0"), 0);
  EXPECT_EQ(eval("1 || 1 / 0"), 1);
  EXPECT_EQ(eval("1 ? 2 : 1 / 0"), 2);
  EXPECT_EQ(eval("bx > 0 && n / bx > 2", {{"bx", 0}, {"n", 10}}), 0);
}

TEST(Formula, AMalformedFormulaIsRefusedWithWhereAndWhy) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "is empty"},
      {"   ", "is empty"},
      {"1 +", "ends too early"},
      {"(1 + 2", "expected ')'"},
      {"1 + 2)", "unexpected ')' at character 6"},
      {"cdiv(1)", "calls cdiv with 1 arguments"},
      {"log2(1, 2)", "calls log2 with 2 arguments"},
      {"ceil(cols / 32)", "calls unknown function 'ceil'"},
      {"12abc", "malformed number"},
      {"99999999999999999999", "too large for 64 bits"},
      {"rows $ 2", "unexpected '$'"},
      {"a ? b", "expected ':'"},
      {std::string(100, '(') + "1" + std::string(100, ')'), "nests too deeply"},
  };
  for (const auto& [text, expected] : cases) {
    try {
      Formula::parse(text);
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const FormulaError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << text << ": " << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
}

TEST(Formula, AnUnevaluableFormulaIsAnErrorNeverAWrongNumber) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"1 / 0", "divides by zero"},
      {"1 % 0", "divides by zero"},
      {"9223372036854775807 + 1", "overflows 64 bits"},
      {"-9223372036854775807 - 2", "overflows 64 bits"},
      {"4294967296 * 4294967296", "overflows 64 bits"},
      {"width * 2", "uses unknown name 'width' (known here: rows)"},
      {"log2(0)", "takes log2 of 0"},
      {"pow2(63)", "takes pow2 of 63"},
      {"cdiv(1, 0)", "calls cdiv with a divisor of 0"},
      {"round_up(1, -4)", "calls round_up with a divisor of -4"},
  };
  for (const auto& [text, expected] : cases) {
    try {
      const auto value = Formula::parse(text).evaluate({{"rows", 1}});
      ADD_FAILURE() << "'" << text << "' gave " << value;
    } catch (const FormulaError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << text << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find("'" + text + "'"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
