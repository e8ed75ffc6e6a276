#include "plugin/formula.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

namespace kb {

struct Formula::Node {
  enum class Kind { number, variable, unary, binary, ternary, call } kind = Kind::number;
  std::int64_t value = 0;
  std::string name;  // variable, operator or function
  std::vector<std::shared_ptr<const Node>> children;
};

namespace {

using Node = Formula::Node;
using NodePtr = std::shared_ptr<const Node>;

constexpr int kMaxDepth = 64;

struct Function {
  const char* name;
  std::size_t min_args, max_args;  // max 0: any number from min_args
};
constexpr Function kFunctions[] = {{"cdiv", 2, 2}, {"round_up", 2, 2}, {"min", 1, 0},
                                   {"max", 1, 0},  {"log2", 1, 1},     {"pow2", 1, 1},
                                   {"is_pow2", 1, 1}};

const Function* find_function(const std::string& name) {
  for (const auto& f : kFunctions) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  NodePtr parse() {
    skip_space();
    if (at_ == text_.size()) fail("is empty");
    NodePtr root = expression(0);
    skip_space();
    if (at_ != text_.size()) fail("unexpected '" + text_.substr(at_, 1) + "'", at_);
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what, std::size_t where = std::string::npos) const {
    std::string message = "formula '" + text_ + "' " + what;
    if (where != std::string::npos) message += " at character " + std::to_string(where + 1);
    throw FormulaError(message);
  }

  void skip_space() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }

  bool take(const char* token) {
    skip_space();
    const std::size_t n = std::char_traits<char>::length(token);
    if (text_.compare(at_, n, token) != 0) return false;
    // '<' must not take the first character of '<=' or '<<', nor '!' that of '!=', nor '&'
    // that of '&&'.
    if (n == 1 && at_ + 1 < text_.size()) {
      const char next = text_[at_ + 1];
      if (next == '=' && (token[0] == '<' || token[0] == '>' || token[0] == '!' || token[0] == '=')) {
        return false;
      }
      if ((token[0] == '<' || token[0] == '>' || token[0] == '&' || token[0] == '|') &&
          next == token[0]) {
        return false;
      }
    }
    at_ += n;
    return true;
  }

  void expect(const char* token) {
    if (!take(token)) {
      skip_space();
      fail(std::string("expected '") + token + "'", at_);
    }
  }

  static NodePtr make(Node::Kind kind, std::string name, std::vector<NodePtr> children) {
    auto node = std::make_shared<Node>();
    node->kind = kind;
    node->name = std::move(name);
    node->children = std::move(children);
    return node;
  }

  NodePtr expression(int depth) {
    if (depth > kMaxDepth) fail("nests too deeply");
    NodePtr condition = binary(0, depth);
    if (!take("?")) return condition;
    NodePtr yes = expression(depth + 1);
    expect(":");
    NodePtr no = expression(depth + 1);
    return make(Node::Kind::ternary, "?:", {condition, yes, no});
  }

  // Precedence levels, loosest first.
  NodePtr binary(int level, int depth) {
    static const std::vector<std::vector<const char*>> kLevels = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"},
        {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    if (level == static_cast<int>(kLevels.size())) return unary(depth);
    NodePtr left = binary(level + 1, depth);
    while (true) {
      const char* matched = nullptr;
      for (const char* op : kLevels[level]) {
        if (take(op)) {
          matched = op;
          break;
        }
      }
      if (matched == nullptr) return left;
      NodePtr right = binary(level + 1, depth);
      left = make(Node::Kind::binary, matched, {left, right});
    }
  }

  NodePtr unary(int depth) {
    if (depth > kMaxDepth) fail("nests too deeply");
    for (const char* op : {"-", "+", "!", "~"}) {
      if (take(op)) return make(Node::Kind::unary, op, {unary(depth + 1)});
    }
    return primary(depth);
  }

  NodePtr primary(int depth) {
    skip_space();
    if (at_ == text_.size()) fail("ends too early");
    const char c = text_[at_];
    if (c == '(') {
      ++at_;
      NodePtr inner = expression(depth + 1);
      expect(")");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      const std::size_t start = at_;
      std::int64_t value = 0;
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
        const int digit = text_[at_] - '0';
        if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10) {
          fail("has a number too large for 64 bits", start);
        }
        value = value * 10 + digit;
        ++at_;
      }
      if (at_ < text_.size() && identifier_char(text_[at_])) fail("has a malformed number", start);
      auto node = std::make_shared<Node>();
      node->value = value;
      return node;
    }
    if (identifier_start(c)) {
      const std::size_t start = at_;
      while (at_ < text_.size() && identifier_char(text_[at_])) ++at_;
      std::string name = text_.substr(start, at_ - start);
      if (!take("(")) return make(Node::Kind::variable, name, {});
      const Function* function = find_function(name);
      if (function == nullptr) {
        std::string known;
        for (const auto& f : kFunctions) known += std::string(known.empty() ? "" : ", ") + f.name;
        fail("calls unknown function '" + name + "' (known: " + known + ")", start);
      }
      std::vector<NodePtr> args;
      if (!take(")")) {
        do {
          args.push_back(expression(depth + 1));
        } while (take(","));
        expect(")");
      }
      if (args.size() < function->min_args ||
          (function->max_args != 0 && args.size() > function->max_args)) {
        fail("calls " + name + " with " + std::to_string(args.size()) + " arguments", start);
      }
      return make(Node::Kind::call, name, std::move(args));
    }
    fail("unexpected '" + std::string(1, c) + "'", at_);
  }

  const std::string& text_;
  std::size_t at_ = 0;
};

class Evaluator {
 public:
  Evaluator(const std::string& text, const FormulaVariables& variables)
      : text_(text), variables_(variables) {}

  std::int64_t eval(const Node& n) const {
    switch (n.kind) {
      case Node::Kind::number: return n.value;
      case Node::Kind::variable: {
        const auto it = variables_.find(n.name);
        if (it == variables_.end()) fail("uses unknown name '" + n.name + "'" + known_names());
        return it->second;
      }
      case Node::Kind::unary: {
        const std::int64_t v = eval(*n.children[0]);
        if (n.name == "!") return v == 0;
        if (n.name == "+") return v;
        if (n.name == "~") return ~v;
        if (v == std::numeric_limits<std::int64_t>::min()) overflow();
        return -v;
      }
      case Node::Kind::ternary:
        return eval(*n.children[0]) != 0 ? eval(*n.children[1]) : eval(*n.children[2]);
      case Node::Kind::binary: return binary(n);
      case Node::Kind::call: return call(n);
    }
    return 0;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw FormulaError("formula '" + text_ + "' " + what);
  }
  [[noreturn]] void overflow() const { fail("overflows 64 bits"); }

  std::string known_names() const {
    if (variables_.empty()) return "";
    std::string names;
    for (const auto& [name, value] : variables_) names += (names.empty() ? "" : ", ") + name;
    return " (known here: " + names + ")";
  }

  std::int64_t binary(const Node& n) const {
    const std::string& op = n.name;
    if (op == "&&") return eval(*n.children[0]) != 0 && eval(*n.children[1]) != 0;
    if (op == "||") return eval(*n.children[0]) != 0 || eval(*n.children[1]) != 0;
    const std::int64_t a = eval(*n.children[0]);
    const std::int64_t b = eval(*n.children[1]);
    std::int64_t r = 0;
    if (op == "+") {
      if (__builtin_add_overflow(a, b, &r)) overflow();
      return r;
    }
    if (op == "-") {
      if (__builtin_sub_overflow(a, b, &r)) overflow();
      return r;
    }
    if (op == "*") {
      if (__builtin_mul_overflow(a, b, &r)) overflow();
      return r;
    }
    if (op == "/" || op == "%") {
      if (b == 0) fail("divides by zero");
      if (a == std::numeric_limits<std::int64_t>::min() && b == -1) overflow();
      return op == "/" ? a / b : a % b;
    }
    if (op == "&") return a & b;
    if (op == "|") return a | b;
    if (op == "^") return a ^ b;
    if (op == "<<" || op == ">>") {
      if (b < 0 || b > 63) fail("shifts by " + std::to_string(b));
      if (op == ">>") return a >> b;
      if (a < 0 || (b > 0 && a > (std::numeric_limits<std::int64_t>::max() >> b))) overflow();
      return a << b;
    }
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    if (op == "<") return a < b;
    if (op == "<=") return a <= b;
    if (op == ">") return a > b;
    return a >= b;
  }

  std::int64_t call(const Node& n) const {
    std::vector<std::int64_t> args;
    for (const auto& child : n.children) args.push_back(eval(*child));
    const std::string& f = n.name;
    if (f == "min") return *std::min_element(args.begin(), args.end());
    if (f == "max") return *std::max_element(args.begin(), args.end());
    if (f == "log2") {
      if (args[0] <= 0) fail("takes log2 of " + std::to_string(args[0]));
      return 63 - __builtin_clzll(static_cast<unsigned long long>(args[0]));
    }
    if (f == "is_pow2") return args[0] > 0 && (args[0] & (args[0] - 1)) == 0;
    if (f == "pow2") {
      if (args[0] < 0 || args[0] > 62) fail("takes pow2 of " + std::to_string(args[0]));
      return std::int64_t{1} << args[0];
    }
    // cdiv, round_up: a positive divisor; a rounded up to it.
    const std::int64_t a = args[0], b = args[1];
    if (b <= 0) fail("calls " + f + " with a divisor of " + std::to_string(b));
    std::int64_t q = a / b;
    if (a % b != 0 && a > 0) ++q;
    if (f == "cdiv") return q;
    std::int64_t r = 0;
    if (__builtin_mul_overflow(q, b, &r)) overflow();
    return r;
  }

  const std::string& text_;
  const FormulaVariables& variables_;
};

void collect_names(const Node& n, std::vector<std::string>& names) {
  if (n.kind == Node::Kind::variable &&
      std::find(names.begin(), names.end(), n.name) == names.end()) {
    names.push_back(n.name);
  }
  for (const auto& child : n.children) collect_names(*child, names);
}

}  // namespace

Formula::Formula() : text_("0"), root_(std::make_shared<Node>()) {}

Formula Formula::parse(const std::string& text) {
  Formula f;
  f.text_ = text;
  f.root_ = Parser(f.text_).parse();
  return f;
}

Formula Formula::constant(std::int64_t value) {
  Formula f;
  f.text_ = std::to_string(value);
  auto node = std::make_shared<Node>();
  node->value = value;
  f.root_ = node;
  return f;
}

std::int64_t Formula::evaluate(const FormulaVariables& variables) const {
  return Evaluator(text_, variables).eval(*root_);
}

std::vector<std::string> Formula::names() const {
  std::vector<std::string> names;
  collect_names(*root_, names);
  return names;
}

bool Formula::uses(const std::string& name) const {
  const auto all = names();
  return std::find(all.begin(), all.end(), name) != all.end();
}

}  // namespace kb
