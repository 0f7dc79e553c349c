// A recursive-descent parser. Values are kept as fractions num/den of dims so that sympy's
// true division reads the same: floor((H - 1)/2) is FloorDiv(H - 1, 2), and N/2 + N/2 is N.
#include "onnx_infer/symbolic/parse.h"

#include <cctype>
#include <vector>

#include "onnx_infer/base/strings.h"

namespace onnx_infer::symbolic {
namespace {

struct Frac {
  Dim num;
  Dim den = Dim::Const(1);
};

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::optional<Dim> ParseAll() {
    auto v = Expr();
    if (!v) return std::nullopt;
    Skip();
    if (pos_ != text_.size()) return Fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return Integer(*v);
  }

  const ParseError& error() const { return error_; }

 private:
  template <typename T = Dim>
  std::optional<T> Fail(std::string message, bool too_deep = false) {
    if (error_.message.empty()) error_ = {std::move(message), pos_, too_deep};
    return std::nullopt;
  }

  void Skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Eat(std::string_view token) {
    Skip();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }

  // A fraction that must be an integer: exact division only.
  std::optional<Dim> Integer(const Frac& f) {
    if (f.num.is_unknown() || f.den.is_unknown()) return Fail("overflow or division by zero");
    if (f.den == Dim::Const(1)) return f.num;
    if (Dim::Mod(f.num, f.den) != Dim::Const(0)) {
      return Fail("(" + f.num.ToString() + ")/(" + f.den.ToString() +
                  ") is not provably an integer");
    }
    Dim q = Dim::FloorDiv(f.num, f.den);
    if (q.is_unknown()) return Fail("overflow");
    return q;
  }

  std::optional<Frac> Expr() {
    auto lhs = Term();
    while (lhs) {
      bool plus = Eat("+");
      if (!plus && !Eat("-")) break;
      auto rhs = Term();
      if (!rhs) return std::nullopt;
      Dim cross = rhs->num * lhs->den;
      lhs = Frac{lhs->num * rhs->den + (plus ? cross : Dim::Const(0) - cross), lhs->den * rhs->den};
    }
    return lhs;
  }

  std::optional<Frac> Term() {
    auto lhs = Unary();
    while (lhs) {
      if (Eat("//")) {
        auto rhs = Unary();
        if (!rhs) return std::nullopt;
        lhs = Frac{Dim::FloorDiv(lhs->num * rhs->den, lhs->den * rhs->num)};
      } else if (Eat("*")) {
        auto rhs = Unary();
        if (!rhs) return std::nullopt;
        lhs = Frac{lhs->num * rhs->num, lhs->den * rhs->den};
      } else if (Eat("/")) {
        auto rhs = Unary();
        if (!rhs) return std::nullopt;
        if (rhs->num == Dim::Const(0)) return Fail<Frac>("division by zero");
        lhs = Frac{lhs->num * rhs->den, lhs->den * rhs->num};
      } else if (Eat("%")) {
        auto rhs = Unary();
        if (!rhs) return std::nullopt;
        auto a = Integer(*lhs), b = Integer(*rhs);
        if (!a || !b) return std::nullopt;
        lhs = Frac{Dim::Mod(*a, *b)};
      } else {
        break;
      }
    }
    return lhs;
  }

  // Every nesting (parentheses, calls, unary signs) passes through here: the depth is
  // bounded so that a hostile text cannot overflow the stack.
  std::optional<Frac> Unary() {
    if (depth_ >= kMaxDimNesting) {
      return Fail<Frac>(StrCat("nested too deeply: more than ", kMaxDimNesting,
                               " levels (the dim expression nesting limit, docs/limits.md)"),
                        /*too_deep=*/true);
    }
    ++depth_;
    auto v = UnaryBody();
    --depth_;
    return v;
  }

  std::optional<Frac> UnaryBody() {
    if (Eat("-")) {
      auto v = Unary();
      if (!v) return std::nullopt;
      return Frac{Dim::Const(0) - v->num, v->den};
    }
    if (Eat("+")) return Unary();
    return Power();
  }

  std::optional<Frac> Power() {
    auto base = Primary();
    if (!base || !Eat("**")) return base;
    Skip();
    size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (start == pos_ || pos_ - start > 2) return Fail<Frac>("expected an exponent 0..64");
    int exp = std::stoi(std::string(text_.substr(start, pos_ - start)));
    if (exp > 64) return Fail<Frac>("expected an exponent 0..64");
    Frac out;
    out.num = Dim::Const(1);
    for (int i = 0; i < exp; ++i) out = Frac{out.num * base->num, out.den * base->den};
    return out;
  }

  std::optional<Frac> Primary() {
    Skip();
    if (pos_ >= text_.size()) return Fail<Frac>("unexpected end");
    const char c = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, text_[pos_] - '0', &v)) {
          return Fail<Frac>("integer overflow");
        }
        ++pos_;
      }
      return Frac{Dim::Const(v)};
    }
    if (Eat("(")) {
      auto v = Expr();
      if (!v) return std::nullopt;
      if (!Eat(")")) return Fail<Frac>("expected ')'");
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
        ++pos_;
      }
      std::string name(text_.substr(start, pos_ - start));
      if (!Eat("(")) return Frac{Dim::Symbol(name)};
      return Call(name);
    }
    return Fail<Frac>("unexpected '" + std::string(1, c) + "'");
  }

  // After "name(": the arguments and ')'.
  std::optional<Frac> Call(const std::string& name) {
    std::vector<Frac> args;
    do {
      auto a = Expr();
      if (!a) return std::nullopt;
      args.push_back(*a);
    } while (Eat(","));
    if (!Eat(")")) return Fail<Frac>("expected ')' after the arguments of " + name);
    if (name == "floor" || name == "ceiling" || name == "ceil") {
      if (args.size() != 1) return Fail<Frac>(name + " takes one argument");
      if (name == "floor") return Frac{Dim::FloorDiv(args[0].num, args[0].den)};
      return Frac{Dim::CeilDiv(args[0].num, args[0].den)};
    }
    std::vector<Dim> ints;
    for (const Frac& f : args) {
      auto i = Integer(f);
      if (!i) return std::nullopt;
      ints.push_back(*i);
    }
    if (name == "Mod") {
      if (ints.size() != 2) return Fail<Frac>("Mod takes two arguments");
      return Frac{Dim::Mod(ints[0], ints[1])};
    }
    const bool is_max = name == "Max" || name == "max";
    if (is_max || name == "Min" || name == "min") {
      Dim out = ints[0];
      for (size_t i = 1; i < ints.size(); ++i) {
        out = is_max ? Dim::Max(out, ints[i]) : Dim::Min(out, ints[i]);
      }
      return Frac{out};
    }
    return Fail<Frac>("unknown function '" + name + "'");
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
  ParseError error_;
};

}  // namespace

std::optional<Dim> ParseDim(std::string_view text, ParseError* error) {
  Parser p(text);
  auto d = p.ParseAll();
  if (d && d->is_unknown()) d.reset();
  if (!d && error) {
    *error = p.error();
    if (error->message.empty()) *error = {"overflow", text.size()};
  }
  return d;
}

std::optional<Dim> ParseDim(std::string_view text, std::string* error) {
  ParseError e;
  auto d = ParseDim(text, error ? &e : nullptr);
  if (!d && error) *error = e.message + " at offset " + std::to_string(e.offset);
  return d;
}

std::optional<LowerBound> ParseLowerBound(std::string_view text, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<LowerBound> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  const char* kForm = "expected a lower bound of one symbol, such as 'S >= 2' or 'S > 1'";
  const size_t at = text.find_first_of("<>=!");
  if (at == std::string_view::npos) return fail(kForm);
  const bool strict = at + 1 >= text.size() || text[at + 1] != '=';
  const std::string_view op = text.substr(at, strict ? 1 : 2);
  if (op != ">" && op != ">=" && op != "<" && op != "<=") {
    return fail(std::string(kForm) + " (only lower bounds can be assumed)");
  }
  const std::string_view left = text.substr(0, at), right = text.substr(at + op.size());
  if (right.find_first_of("<>=!") != std::string_view::npos) return fail(kForm);
  std::string why;
  auto lhs = ParseDim(left, &why);
  if (!lhs) return fail("left of '" + std::string(op) + "': " + why);
  auto rhs = ParseDim(right, &why);
  if (!rhs) return fail("right of '" + std::string(op) + "': " + why);
  // The symbol on the greater side: S >= k, S > k, k <= S, k < S.
  const bool symbol_left = op[0] == '>';
  const Dim symbol = symbol_left ? *lhs : *rhs, bound = symbol_left ? *rhs : *lhs;
  if (!bound.is_const() || !symbol.is_symbol()) {
    if (symbol.is_const() && bound.is_symbol()) {  // S <= 4, 4 >= S
      return fail(std::string(kForm) + " (only lower bounds can be assumed)");
    }
    return fail(kForm);
  }
  int64_t value = *bound.const_value();
  if (strict && __builtin_add_overflow(value, 1, &value)) return fail(kForm);
  return LowerBound{std::string(symbol.symbol_name()), value};
}

std::optional<Assumption> ParseAssumption(std::string_view text, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<Assumption> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  const char* kForm =
      "expected a dim expression compared with integers, such as 'S >= 2', 'S <= 2048', "
      "'1 <= B <= 64' or 'P + S <= 4096'";
  // Split at the comparison operators.
  std::vector<std::string_view> parts;
  std::vector<std::string_view> ops;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c != '<' && c != '>' && c != '=' && c != '!') continue;
    const size_t len = i + 1 < text.size() && text[i + 1] == '=' ? 2 : 1;
    const std::string_view op = text.substr(i, len);
    if (op == "==" || op == "=" || op == "!=" || op == "!") {
      return fail(std::string(kForm) + " (an equation fixes a value: use --bind S=128)");
    }
    parts.push_back(text.substr(start, i - start));
    ops.push_back(op);
    i += len - 1;
    start = i + 1;
  }
  parts.push_back(text.substr(start));
  if (ops.empty() || ops.size() > 2) return fail(kForm);
  const bool greater = ops[0][0] == '>';
  if (ops.size() == 2 && (ops[1][0] == '>') != greater) {
    return fail(std::string(kForm) + " (a chain's comparisons must point the same way)");
  }
  std::vector<Dim> dims;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string why;
    auto d = ParseDim(parts[i], &why);
    if (!d) {
      return fail(i == 0 ? "left of '" + std::string(ops[0]) + "': " + why
                         : "right of '" + std::string(ops[i - 1]) + "': " + why);
    }
    dims.push_back(*d);
  }
  // The expression: the one side that is not an integer (the middle of a chain).
  int expr = -1;
  for (int i = 0; i < static_cast<int>(dims.size()); ++i) {
    if (dims[i].is_const()) continue;
    if (expr >= 0) return fail(std::string(kForm) + " (one side must be an integer)");
    expr = i;
  }
  if (expr < 0 || (dims.size() == 3 && expr != 1)) return fail(kForm);
  Assumption a;
  a.expr = dims[expr];
  // Each comparison left op right, with one side the expression.
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string_view op = ops[i];
    const bool expr_left = static_cast<int>(i) == expr;
    int64_t k = *dims[expr_left ? i + 1 : i].const_value();
    // Written as expr OP k: flip the operator when the expression is on the right.
    const bool at_least = (op[0] == '>') == expr_left;
    const bool strict = op.size() == 1;
    if (strict && __builtin_add_overflow(k, at_least ? 1 : -1, &k)) return fail(kForm);
    if (at_least) {
      a.lo = a.lo ? std::max(*a.lo, k) : k;
    } else {
      a.hi = a.hi ? std::min(*a.hi, k) : k;
    }
  }
  return a;
}

bool IsIdentifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

}  // namespace onnx_infer::symbolic
