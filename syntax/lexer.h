// Tokens of the ONNX textual syntax (docs/syntax.md). The lexer works on bytes: identifiers
// are ASCII, quoted strings may hold any byte (escaped or not).
#ifndef ONNX_INFER_SYNTAX_LEXER_H_
#define ONNX_INFER_SYNTAX_LEXER_H_

#include <string>
#include <string_view>
#include <vector>

#include "onnx_infer/base/status.h"

namespace onnx_infer::syntax {

enum class TokenKind {
  kEnd,     // end of input
  kId,      // [A-Za-z_][A-Za-z0-9_]*
  kString,  // "..." with escapes decoded into `text`
  kInt,     // -?[0-9]+
  kFloat,   // -?[0-9]+ with a fraction or exponent, or -inf / -nan
  kPunct,   // ( ) [ ] { } < > , : = @ . ? and the arrow =>
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;  // the identifier, number or punctuation as written; a string's bytes
  int line = 1;
  int column = 1;
};

// "end of input", "'=>'", "identifier 'foo'", "string \"x\"", "number 3".
std::string Describe(const Token& token);

// Splits `text` into tokens, dropping whitespace and `#` comments; the last token is kEnd.
// Errors (an unterminated string, a bad escape, a stray character) name `source`, the line
// and the column.
StatusOr<std::vector<Token>> Tokenize(std::string_view text, std::string_view source);

// True for [A-Za-z_][A-Za-z0-9_]*.
bool IsIdentifier(std::string_view s);

}  // namespace onnx_infer::syntax

#endif  // ONNX_INFER_SYNTAX_LEXER_H_
