#include "onnx_infer/schema/diagnostic.h"

#include <cctype>

namespace onnx_infer {

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "note";
  }
  return "error";
}

std::string DiagnosticSubject::ToString() const {
  if (kind.empty()) return "";
  std::string out = kind;
  if (index >= 0) out.append(" ").append(std::to_string(index));
  if (!name.empty() || index < 0) out.append(" '").append(name).append("'");
  return out;
}

DiagnosticSubject SubjectOfMessage(std::string_view message) {
  DiagnosticSubject subject;
  std::string_view rest = message;
  for (std::string_view kind : {"input ", "output ", "attribute "}) {
    if (rest.substr(0, kind.size()) == kind) {
      subject.kind = std::string(kind.substr(0, kind.size() - 1));
      rest.remove_prefix(kind.size());
      break;
    }
  }
  if (subject.kind.empty()) return {};
  if (subject.kind != "attribute" && !rest.empty() &&
      std::isdigit(static_cast<unsigned char>(rest[0]))) {
    size_t digits = 0;
    while (digits < rest.size() && digits < 9 &&
           std::isdigit(static_cast<unsigned char>(rest[digits]))) {
      ++digits;
    }
    subject.index = std::stoi(std::string(rest.substr(0, digits)));
    rest.remove_prefix(digits);
    if (rest.substr(0, 2) == " '") rest.remove_prefix(1);
  }
  if (!rest.empty() && rest[0] == '\'') {
    size_t close = rest.find('\'', 1);
    if (close == std::string_view::npos) return {};
    subject.name = std::string(rest.substr(1, close - 1));
    rest.remove_prefix(close + 1);
  } else if (subject.index < 0) {
    return {};  // "input " followed by neither a position nor a name: ordinary prose
  }
  // The subject must end where the message's first clause does.
  if (!rest.empty() && rest[0] != ':' && rest[0] != ' ' && rest[0] != ',') return {};
  return subject;
}

std::string Diagnostic::Render(std::string_view source) const {
  std::string out;
  if (!source.empty()) out.append(source).append(": ");
  out.append(SeverityName(severity));
  std::string where;
  if (!graph.empty()) where.append("graph '").append(graph).append("' ");
  if (node_index >= 0) {
    where.append("node #").append(std::to_string(node_index));
    if (!node_name.empty()) where.append(" '").append(node_name).append("'");
    where.append(" ");
  }
  if (!op.empty()) where.append("(").append(op).append(") ");
  if (!where.empty()) {
    where.pop_back();
    out.append(": ").append(where);
  }
  out.append(": ").append(message);
  return out;
}

}  // namespace onnx_infer
