// Integer formulas of a kernel file's manifest: a launch's grid, block, cluster, shared memory,
// scratch sizes, scalar arguments and acceptance rules as expressions of the case's shape, block
// and knobs ("cdiv(cols, 32)", "bx * (bx + 1) * elem_bytes", "bx == by && bx <= 32").
//
// 64-bit signed integers throughout, as C computes them: `/` truncates, `%` keeps the sign of the
// dividend; comparisons, `&&`, `||` and `!` give 0 or 1 (and short-circuit, as does `?:`); the
// bitwise `& | ^ ~ << >>` (a shift by 0 to 63; `<<` that overflows is an error), with C's
// precedence. Functions: cdiv(a, b) (a / b rounded up), round_up(a, b) (a rounded up to a
// multiple of b), min(a, b, ...), max(a, b, ...), log2(a) (rounded down), pow2(a) (2^a),
// is_pow2(a) (1 when a is a power of two). Division by zero,
// overflow and an unknown name are errors naming the formula, never a wrong number.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kb {

class FormulaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using FormulaVariables = std::map<std::string, std::int64_t>;

class Formula {
 public:
  Formula();  // the constant 0
  // Throws FormulaError naming what is wrong and where ("'cdiv(n, 32': expected ')' at 11").
  static Formula parse(const std::string& text);
  static Formula constant(std::int64_t value);

  // Throws FormulaError for an unknown name, a division by zero or an overflow.
  std::int64_t evaluate(const FormulaVariables& variables) const;
  // The variables it reads, each once, in order of appearance (functions are not variables).
  std::vector<std::string> names() const;
  bool uses(const std::string& name) const;
  const std::string& text() const { return text_; }

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
};

}  // namespace kb
