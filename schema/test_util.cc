#include "onnx_infer/schema/test_util.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/inference_context.h"
#include "onnx_infer/schema/signature.h"
#include "onnx_infer/schema/type_proto.h"

namespace onnx_infer::testing {
namespace {

std::string Trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

bool IsAllDigits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

Type T(const std::string& text) {
  if (text == "?") return Type();
  // The kinds Type::ToString writes as "kind(inner)".
  auto inner = [&](size_t prefix) { return text.substr(prefix, text.size() - prefix - 1); };
  auto starts = [&](const char* prefix) {
    return text.rfind(prefix, 0) == 0 && text.back() == ')';
  };
  if (starts("seq(")) return Type::Sequence(T(inner(4)));
  if (starts("optional(")) return Type::Optional(T(inner(9)));
  if (starts("sparse_tensor(")) {
    const Type dense = T(inner(14));
    return Type::SparseTensor(dense.elem_type(), dense.maybe_shape());
  }
  if (starts("map(")) {
    const std::string body = inner(4);
    const size_t comma = body.find(',');
    auto key =
        comma == std::string::npos ? std::nullopt : DataTypeFromName(Trim(body.substr(0, comma)));
    if (!key) {
      ADD_FAILURE() << "bad map type " << text;
      return Type();
    }
    return Type::Map(*key, T(Trim(body.substr(comma + 1))));
  }
  size_t open = text.find('[');
  std::string elem = text.substr(0, open);
  auto code = DataTypeFromName(elem);
  if (!code) {
    ADD_FAILURE() << "bad element type in " << text;
    return Type();
  }
  if (open == std::string::npos) return Type::Tensor(*code);
  if (text.back() != ']') {
    ADD_FAILURE() << "bad type " << text;
    return Type();
  }
  Shape shape;
  std::string body = text.substr(open + 1, text.size() - open - 2);
  if (!Trim(body).empty()) {
    // Split at commas outside parentheses: "Max(A, B)" is one dim.
    std::vector<std::string> items(1);
    int depth = 0;
    for (char ch : body) {
      if (ch == ',' && depth == 0) {
        items.emplace_back();
        continue;
      }
      depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
      items.back() += ch;
    }
    for (std::string item : items) {
      item = Trim(item);
      if (item == "?") {
        shape.push_back(Dim());
      } else if (std::isdigit(static_cast<unsigned char>(item[0])) && IsAllDigits(item)) {
        shape.push_back(Dim::Const(std::strtoll(item.c_str(), nullptr, 10)));
      } else if (item[0] == '-' && IsAllDigits(item.substr(1))) {
        shape.push_back(Dim::Const(std::strtoll(item.c_str(), nullptr, 10)));
      } else {
        shape.push_back(DimFromParam(item));  // a symbol or an expression ("N + 1")
      }
    }
  }
  return Type::Tensor(*code, std::move(shape));
}

ConstValue Int64s(const std::vector<int64_t>& values) {
  ConstValue v;
  v.elem_type = kInt64;
  v.dims = {static_cast<int64_t>(values.size())};
  for (int64_t x : values) v.ints.push_back(Dim::Const(x));
  return v;
}

std::string RuleRun::Summary() const {
  if (!status.ok()) return "error: " + status.message();
  std::vector<std::string> parts;
  for (const auto& t : outputs) parts.push_back(t.ToString());
  return StrJoin(parts, "; ");
}

RuleRun RunRule(const SchemaRegistry& registry, const std::string& node_text, int64_t opset,
                const std::vector<Type>& inputs,
                const std::vector<std::optional<ConstValue>>& values, symbolic::Unifier* unifier) {
  RuleRun run;
  onnx::NodeProto node;
  if (!google::protobuf::TextFormat::ParseFromString(node_text, &node)) {
    ADD_FAILURE() << "bad node text: " << node_text;
    run.status = Status::Error("bad node text");
    return run;
  }
  const OpSchema* schema = registry.Lookup(node.domain(), node.op_type(), opset);
  if (!schema || !schema->has_rule()) {
    ADD_FAILURE() << "no rule for " << node.op_type() << " in opset " << opset;
    run.status = Status::Error("no rule");
    return run;
  }
  std::vector<const Type*> types;
  std::vector<const ConstValue*> consts;
  for (size_t i = 0; i < inputs.size(); ++i) {
    types.push_back(node.input(static_cast<int>(i)).empty() ? nullptr : &inputs[i]);
    consts.push_back(i < values.size() && values[i] ? &*values[i] : nullptr);
  }
  InferenceContext ctx(node, *schema, opset, types, consts);
  if (unifier) ctx.set_unifier(unifier);
  run.status = schema->rule()(ctx);
  // An error's subject (the driver's Diagnostic::subject) is what its message starts with.
  const Subject& subject = run.status.subject();
  if (!subject.empty() && run.status.message().rfind(subject.ToString(), 0) != 0) {
    ADD_FAILURE() << "error subject " << subject.ToString()
                  << " is not where the message starts: " << run.status.message();
  }
  // As the driver does: what the signature says completes what the rule left open.
  SignatureCheck signature = CheckSignature(node, *schema, types);
  for (int i = 0; i < ctx.NumOutputs(); ++i) {
    Type out = ctx.OutputType(i);
    auto merged = MergeTypes(out, TypeFromSignature(*schema, signature, i));
    run.outputs.push_back(merged.ok() ? *merged : out);
    run.values.push_back(ctx.OutputValue(i));
  }
  run.warnings = ctx.warnings();
  if (unifier) {
    for (const auto& f : unifier->facts()) run.facts.push_back(f.ToString());
  }
  return run;
}

bool ExpectsError(const std::string& expected) { return expected.rfind("error: ", 0) == 0; }

::testing::AssertionResult RunMatches(const RuleRun& run, const std::string& expected) {
  if (ExpectsError(expected)) {
    if (run.status.ok()) {
      return ::testing::AssertionFailure() << "expected " << expected << ", got " << run.Summary();
    }
    if (run.status.message().find(expected.substr(7)) == std::string::npos) {
      return ::testing::AssertionFailure()
             << "expected " << expected << ", got error: " << run.status.message();
    }
    return ::testing::AssertionSuccess();
  }
  if (run.Summary() != expected) {
    return ::testing::AssertionFailure()
           << "expected " << expected << "\n     got " << run.Summary();
  }
  return ::testing::AssertionSuccess();
}

std::string ValueText(const ConstValue& v) {
  const std::string text = v.ToString();  // "int64[2] {B, 4}"
  const size_t open = text.find(" {");
  return "[" + text.substr(open + 2, text.size() - open - 3) + "]";
}

ConstValue Scalar(Dim d) {
  ConstValue v;
  v.elem_type = kInt64;
  v.ints = {d};
  return v;
}

ConstValue Scalar(int64_t i) { return Scalar(Dim::Const(i)); }

ConstValue Dims(const std::vector<std::string>& items) {
  ConstValue v;
  v.elem_type = kInt64;
  v.dims = {static_cast<int64_t>(items.size())};
  for (const auto& i : items) {
    const bool integer = i.find_first_not_of("-0123456789") == std::string::npos;
    v.ints.push_back(integer ? Dim::Const(std::stoll(i))
                             : T("int64[" + i + "]").shape()[0]);  // a symbol or an expression
  }
  return v;
}

ConstValue Ints(std::vector<int64_t> dims, const std::vector<std::string>& items) {
  ConstValue v = Dims(items);
  v.dims = std::move(dims);
  return v;
}

ConstValue Reals(int32_t type, std::vector<int64_t> dims, std::vector<double> items) {
  return ConstValue{type, std::move(dims), {}, std::move(items)};
}

ConstValue Ints(int32_t type, std::vector<int64_t> dims, std::vector<Dim> items) {
  return ConstValue{type, std::move(dims), std::move(items), {}};
}

ConstValue Quotients(int32_t type, std::vector<int64_t> dims, std::vector<RealQuotient> items) {
  ConstValue v{type, std::move(dims), {}, {}};
  v.quotients = std::move(items);
  return v;
}

RealQuotient Q(Dim num, int64_t den, bool rounded) { return RealQuotient{num, den, rounded}; }

const Dim kH = Dim::Symbol("H");
const Dim kW = Dim::Symbol("W");

ConstValue FloatSize(const char* dim) {
  ConstValue v{kFloat, {}, {}, {}};
  v.quotients.push_back(RealQuotient{T(std::string("int64[") + dim + "]").shape()[0], 1, false});
  return v;
}

std::string Node(const char* op, const std::vector<const char*>& inputs,
                 const std::vector<const char*>& outputs, const std::string& attrs,
                 const char* domain) {
  std::string s = std::string(R"(op_type: ")") + op + R"(")";
  if (*domain) s += std::string(R"( domain: ")") + domain + R"(")";
  for (const char* i : inputs) s += std::string(R"( input: ")") + i + R"(")";
  for (const char* o : outputs) s += std::string(R"( output: ")") + o + R"(")";
  return s + attrs;
}

std::string OpNode(const std::string& op, int n, const std::string& attrs) {
  std::string s = "op_type: \"" + op + "\"";
  for (int i = 0; i < n; ++i) s += " input: \"" + std::string(1, static_cast<char>('a' + i)) + "\"";
  return s + " output: \"y\" " + attrs;
}

std::string IntAttr(const char* name, int64_t i) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: INT i: )" + std::to_string(i) +
         " }";
}

std::string IntsAttr(const char* name, const std::vector<int64_t>& values) {
  std::string s = std::string(R"( attribute { name: ")") + name + R"(" type: INTS)";
  for (int64_t v : values) s += " ints: " + std::to_string(v);
  return s + " }";
}

std::string FloatAttr(const char* name, float f) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: FLOAT f: )" +
         std::to_string(f) + " }";
}

std::string FloatsAttr(const char* name, const std::vector<float>& values) {
  std::string s = std::string(R"( attribute { name: ")") + name + R"(" type: FLOATS)";
  for (float f : values) s += " floats: " + std::to_string(f);
  return s + " }";
}

std::string StrAttr(const char* name, const char* s) {
  return std::string(R"( attribute { name: ")") + name + R"(" type: STRING s: ")" + s + R"(" })";
}

std::string StrsAttr(const char* name, const std::vector<const char*>& values) {
  std::string s = std::string(R"( attribute { name: ")") + name + R"(" type: STRINGS)";
  for (const char* v : values) s += std::string(R"( strings: ")") + v + R"(")";
  return s + " }";
}

std::ostream& operator<<(std::ostream& os, const RuleCase& c) { return os << c.name; }

::testing::AssertionResult RunRuleCase(const SchemaRegistry& registry, const RuleCase& c) {
  std::vector<Type> inputs;
  for (const char* t : c.inputs) inputs.push_back(*t ? T(t) : Type());
  const RuleRun run = RunRule(registry, c.node, c.opset, inputs, c.values);
  ::testing::AssertionResult matches = RunMatches(run, c.expected);
  if (!matches || !c.expected_value || ExpectsError(c.expected)) return matches;
  std::string value;
  if (!run.values.empty() && run.values[0]) {
    // "[B, 4]" compares the elements only; anything else the whole ConstValue::ToString.
    value = c.expected_value->rfind('[', 0) == 0 ? ValueText(*run.values[0])
                                                 : run.values[0]->ToString();
  }
  if (value == *c.expected_value) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "output 0's value: expected \"" << *c.expected_value << "\", got \"" << value << "\"";
}

}  // namespace onnx_infer::testing
