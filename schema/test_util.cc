#include "onnx_infer/schema/test_util.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <random>
#include <set>

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
    // Every error a built-in rule returns says what kind of finding it is (RuleError,
    // InputError, ...; docs/diagnostics.md): one that does not is listed here.
    if (CodeOf(run.status) == DiagCode::kUnclassified) {
      return ::testing::AssertionFailure()
             << "the error has no diagnostic code (schema/diagnostic_codes.h): "
             << run.status.message();
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

namespace {

// The symbols of a tensor type's dims; false for a type of another kind holding symbols or
// shapes (sequences, maps, optionals), which the check at bindings leaves out.
bool TensorSymbols(const Type& t, std::set<std::string>& out) {
  if (t.kind() == Type::Kind::kUnknown) return true;
  if (!t.is_tensor()) return false;
  if (!t.has_shape()) return true;
  for (Dim d : t.shape()) {
    for (const auto& name : d.Symbols()) out.insert(name);
  }
  return true;
}

Type TensorAt(const Type& t, const std::map<std::string, Dim, std::less<>>& binding) {
  if (!t.is_tensor() || !t.has_shape()) return t;
  Shape shape;
  for (Dim d : t.shape()) shape.push_back(symbolic::Substitute(d, binding));
  return Type::Tensor(t.elem_type(), std::move(shape));
}

// Issue 27: what a rule says for symbolic inputs must hold for every input it accepts. Binds
// the row's symbols to random small values (0 and 1 among them, seeded by the row's name),
// runs the rule on the concrete inputs and, where it accepts them, compares each output dim
// with the symbolic output evaluated at the binding. Bindings that break a fact the symbolic
// run recorded are inputs the model rejects. No difference is excused by a condition the run
// listed: a broadcast's holds wherever the concrete run accepts the inputs, and exactness
// conditions (N <= 2^24 for float32) hold at these values; the rows assume nothing.
::testing::AssertionResult CheckAtBindings(const SchemaRegistry& registry, const RuleCase& c,
                                           const std::vector<Type>& inputs) {
  if (ExpectsError(c.expected)) return ::testing::AssertionSuccess();
  std::set<std::string> names;
  for (const Type& t : inputs) {
    if (!TensorSymbols(t, names)) return ::testing::AssertionSuccess();
  }
  for (const auto& v : c.values) {
    if (!v) continue;
    if (!v->quotients.empty()) return ::testing::AssertionSuccess();
    for (Dim d : v->ints) {
      for (const auto& name : d.Symbols()) names.insert(name);
    }
  }
  if (names.empty()) return ::testing::AssertionSuccess();
  symbolic::Unifier unifier;
  const RuleRun sym = RunRule(registry, c.node, c.opset, inputs, c.values, &unifier);
  if (!sym.status.ok()) return ::testing::AssertionSuccess();
  uint64_t seed = 1469598103934665603ull;  // FNV-1a of the row's name
  for (const char* p = c.name; *p; ++p) seed = (seed ^ static_cast<uint8_t>(*p)) * 1099511628211ull;
  std::mt19937_64 rng(seed);
  static constexpr int64_t kValues[] = {0, 1, 2, 3, 7};
  for (int trial = 0; trial < 24; ++trial) {
    std::map<std::string, int64_t, std::less<>> values;
    std::map<std::string, Dim, std::less<>> binding;
    for (const auto& name : names) {
      const int64_t v = kValues[rng() % std::size(kValues)];
      values[name] = v;
      binding[name] = Dim::Const(v);
    }
    bool rejected = false;
    for (const symbolic::Fact& f : unifier.facts()) {
      auto l = symbolic::Evaluate(f.lhs, values), r = symbolic::Evaluate(f.rhs, values);
      if (l && r && *l != *r) rejected = true;
    }
    if (rejected) continue;
    std::vector<Type> concrete;
    for (const Type& t : inputs) concrete.push_back(TensorAt(t, binding));
    std::vector<std::optional<ConstValue>> concrete_values = c.values;
    for (auto& v : concrete_values) {
      if (!v) continue;
      for (Dim& d : v->ints) d = symbolic::Substitute(d, binding);
    }
    const RuleRun run = RunRule(registry, c.node, c.opset, concrete, concrete_values);
    if (!run.status.ok()) continue;
    std::string at;
    for (const auto& [name, v] : values) at += StrCat(at.empty() ? "" : ", ", name, "=", v);
    for (size_t o = 0; o < sym.outputs.size() && o < run.outputs.size(); ++o) {
      const Type &s = sym.outputs[o], &k = run.outputs[o];
      if (!s.is_tensor() || !k.is_tensor()) continue;
      if (s.elem_type() != 0 && k.elem_type() != 0 && s.elem_type() != k.elem_type()) {
        return ::testing::AssertionFailure()
               << "at " << at << ": output " << o << " is " << k.ToString() << ", the symbolic "
               << s.ToString() << " has another element type";
      }
      if (!s.has_shape() || !k.has_shape()) continue;
      if (s.shape().size() != k.shape().size()) {
        return ::testing::AssertionFailure() << "at " << at << ": output " << o << " is "
                                             << k.ToString() << ", the symbolic " << s.ToString();
      }
      for (size_t axis = 0; axis < s.shape().size(); ++axis) {
        const std::optional<int64_t> want = k.shape()[axis].const_value();
        const std::optional<int64_t> got = symbolic::Evaluate(s.shape()[axis], values);
        if (!want || !got || *want == *got) continue;
        return ::testing::AssertionFailure()
               << "at " << at << ": output " << o << " is " << k.ToString() << ", but the symbolic "
               << s.ToString() << " gives " << *got << " for dim " << axis;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace

::testing::AssertionResult RunRuleCase(const SchemaRegistry& registry, const RuleCase& c) {
  std::vector<Type> inputs;
  for (const char* t : c.inputs) inputs.push_back(*t ? T(t) : Type());
  const RuleRun run = RunRule(registry, c.node, c.opset, inputs, c.values);
  ::testing::AssertionResult matches = RunMatches(run, c.expected);
  if (matches) matches = CheckAtBindings(registry, c, inputs);
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
