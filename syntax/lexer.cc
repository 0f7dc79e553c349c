#include "onnx_infer/syntax/lexer.h"

#include "onnx_infer/base/strings.h"

namespace onnx_infer::syntax {
namespace {

bool IsIdStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdChar(char c) { return IsIdStart(c) || IsDigit(c); }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool IsIdentifier(std::string_view s) {
  if (s.empty() || !IsIdStart(s[0])) return false;
  for (char c : s) {
    if (!IsIdChar(c)) return false;
  }
  return true;
}

std::string Describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kId:
      return "'" + token.text + "'";
    case TokenKind::kString: {
      std::string shown = token.text.size() > 20 ? token.text.substr(0, 20) + "..." : token.text;
      return "string \"" + shown + "\"";
    }
    case TokenKind::kInt:
    case TokenKind::kFloat:
      return "number " + token.text;
    case TokenKind::kPunct:
      return "'" + token.text + "'";
  }
  return "?";
}

StatusOr<std::vector<Token>> Tokenize(std::string_view text, std::string_view source) {
  std::vector<Token> tokens;
  size_t i = 0;
  int line = 1;
  size_t line_start = 0;
  auto error = [&](int at_line, int at_column, const std::string& message) {
    return Status::Error(StrCat(source, ":", at_line, ":", at_column, ": ", message));
  };
  while (true) {
    // Whitespace and comments.
    while (i < text.size()) {
      char c = text[i];
      if (c == '\n') {
        ++line;
        line_start = ++i;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++i;
      } else if (c == '#') {
        while (i < text.size() && text[i] != '\n') ++i;
      } else {
        break;
      }
    }
    Token token;
    token.line = line;
    token.column = static_cast<int>(i - line_start) + 1;
    if (i >= text.size()) {
      tokens.push_back(std::move(token));
      return tokens;
    }
    char c = text[i];
    if (IsIdStart(c)) {
      size_t start = i;
      while (i < text.size() && IsIdChar(text[i])) ++i;
      token.kind = TokenKind::kId;
      token.text = std::string(text.substr(start, i - start));
    } else if (IsDigit(c) || (c == '-' && i + 1 < text.size() &&
                              (IsDigit(text[i + 1]) || IsIdStart(text[i + 1])))) {
      size_t start = i;
      if (c == '-') ++i;
      if (IsIdStart(text[i])) {  // -inf, -nan
        size_t word = i;
        while (i < text.size() && IsIdChar(text[i])) ++i;
        std::string_view w = text.substr(word, i - word);
        if (w != "inf" && w != "nan") {
          return error(token.line, token.column, "expected a number after '-'");
        }
        token.kind = TokenKind::kFloat;
      } else {
        token.kind = TokenKind::kInt;
        while (i < text.size() && IsDigit(text[i])) ++i;
        if (i < text.size() && text[i] == '.') {
          token.kind = TokenKind::kFloat;
          ++i;
          while (i < text.size() && IsDigit(text[i])) ++i;
        }
        if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
          token.kind = TokenKind::kFloat;
          ++i;
          if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
          if (i >= text.size() || !IsDigit(text[i])) {
            return error(line, static_cast<int>(i - line_start) + 1,
                         "expected the digits of an exponent");
          }
          while (i < text.size() && IsDigit(text[i])) ++i;
        }
        if (i < text.size() && IsIdChar(text[i])) {
          return error(line, static_cast<int>(i - line_start) + 1,
                       "unexpected character after a number (quote names that start with a "
                       "digit)");
        }
      }
      token.text = std::string(text.substr(start, i - start));
    } else if (c == '"') {
      token.kind = TokenKind::kString;
      ++i;
      while (true) {
        if (i >= text.size()) return error(token.line, token.column, "unterminated string");
        char s = text[i];
        if (s == '"') {
          ++i;
          break;
        }
        if (s == '\n') {
          ++line;
          line_start = i + 1;
        }
        if (s != '\\') {
          token.text.push_back(s);
          ++i;
          continue;
        }
        if (i + 1 >= text.size()) return error(token.line, token.column, "unterminated string");
        char e = text[i + 1];
        int escape_column = static_cast<int>(i - line_start) + 1;
        i += 2;
        switch (e) {
          case 'n':
            token.text.push_back('\n');
            break;
          case 't':
            token.text.push_back('\t');
            break;
          case 'r':
            token.text.push_back('\r');
            break;
          case '\\':
            token.text.push_back('\\');
            break;
          case '"':
            token.text.push_back('"');
            break;
          case 'x': {
            int hi = i < text.size() ? HexValue(text[i]) : -1;
            int lo = i + 1 < text.size() ? HexValue(text[i + 1]) : -1;
            if (hi < 0 || lo < 0) {
              return error(line, escape_column, "expected two hex digits after '\\x'");
            }
            token.text.push_back(static_cast<char>(hi * 16 + lo));
            i += 2;
            break;
          }
          default:
            return error(line, escape_column,
                         "unknown escape '\\" + std::string(1, e) +
                             "' (use \\\\, \\\", \\n, \\t, \\r or \\xHH)");
        }
      }
    } else {
      token.kind = TokenKind::kPunct;
      if (c == '=' && i + 1 < text.size() && text[i + 1] == '>') {
        token.text = "=>";
        i += 2;
      } else if (std::string_view("()[]{}<>,:=@.?").find(c) != std::string_view::npos) {
        token.text = std::string(1, c);
        ++i;
      } else {
        unsigned char u = static_cast<unsigned char>(c);
        static constexpr char kHex[] = "0123456789abcdef";
        std::string shown = u >= 0x20 && u < 0x7f ? std::string("'") + c + "'"
                                                  : StrCat("byte 0x", kHex[u >> 4], kHex[u & 0xf]);
        return error(token.line, token.column, "unexpected character " + shown);
      }
    }
    tokens.push_back(std::move(token));
  }
}

}  // namespace onnx_infer::syntax
