// Parsing the dim_param syntax of docs/symbolic.md ("N + 5", "2*N", "floor((H - 1)/2) + 1",
// "ceiling(N/2)", "Mod(N, 3)", "Max(A, B)", "Min(A, B)", "N**2"; also Python's // and %).
#ifndef ONNX_INFER_SYMBOLIC_PARSE_H_
#define ONNX_INFER_SYMBOLIC_PARSE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "onnx_infer/base/limits.h"
#include "onnx_infer/symbolic/dim.h"

namespace onnx_infer::symbolic {

// The expression `text` denotes, in normal form; nullopt (and *error, if given, says why)
// when `text` is not entirely one integer expression of the syntax. `/` is exact: it is
// allowed where the whole expression (or the argument of floor, ceiling, Mod, Min, Max) is
// provably an integer, as sympy would read it.
std::optional<Dim> ParseDim(std::string_view text, std::string* error = nullptr);

// Parentheses, calls and unary signs nest at most this deep (docs/limits.md); deeper is an
// error ("nested too deeply: ..."), never a stack overflow. A dim_param that does not parse
// stays an opaque symbol.
inline constexpr int kMaxDimNesting = kMaxNestingDepth;  // the project's one (base/limits.h)

// Why a text did not parse, and where: `offset` is the byte of `text` at which the parser
// noticed ("expected ')'" at the end of "floor(N"). For callers that parse a text of their
// own making and point back into the user's.
struct ParseError {
  std::string message;
  size_t offset = 0;
  bool too_deep = false;  // the nesting limit (kMaxDimNesting) was what failed
};
std::optional<Dim> ParseDim(std::string_view text, ParseError* error);

// A lower bound assumed for one symbol (`--assume 'S >= 2'`).
struct LowerBound {
  std::string symbol;
  int64_t bound = 0;
};
// Reads "S >= 2", "S > 1", "2 <= S" or "1 < S" (any spacing; the bound an integer, possibly
// negative); nullopt, with *error saying why, for anything else: an upper bound, an equation,
// two symbols or an expression on either side.
std::optional<LowerBound> ParseLowerBound(std::string_view text, std::string* error);

// An assumption about dims (`--assume`): lo <= expr <= hi, either bound possibly absent.
struct Assumption {
  Dim expr;
  std::optional<int64_t> lo, hi;
};
// Reads a comparison of a dim expression with integers: "S >= 2", "S > 1", "S <= 2048",
// "S < 4097", "2 <= S", "1 <= B <= 64", "64 >= B >= 1", "P + S <= 4096" (any spacing; a strict
// comparison becomes the inclusive one, S < 4097 is S <= 4096). nullopt, with *error saying
// why, for anything else: an equation (bind a value with --bind instead), an expression on
// both sides, a chain whose comparisons point different ways.
std::optional<Assumption> ParseAssumption(std::string_view text, std::string* error);

// Whether `text` is a plain identifier ([A-Za-z_][A-Za-z0-9_]*).
bool IsIdentifier(std::string_view text);

}  // namespace onnx_infer::symbolic

#endif  // ONNX_INFER_SYMBOLIC_PARSE_H_
