#include "onnx_infer/inference/contract.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/type_proto.h"
#include "onnx_infer/symbolic/context.h"

namespace onnx_infer {

using symbolic::Dim;

namespace {

// Operators whose output value does not depend on their inputs' values (only on shapes, or
// on attributes): a value read through them does not reach the reader.
bool ReadsOnlyShapes(std::string_view op) {
  return op == "Shape" || op == "Size" || op == "ConstantOfShape" || op == "EyeLike" ||
         op == "RandomNormalLike" || op == "RandomUniformLike";
}

}  // namespace

const std::vector<int>* ShapeInputPositions(std::string_view domain, std::string_view op_type) {
  static const auto* microsoft = new std::map<std::string, std::vector<int>, std::less<>>{
      {"GroupQueryAttention", {6}},
  };
  if (domain == "com.microsoft") {
    auto it = microsoft->find(op_type);
    return it == microsoft->end() ? nullptr : &it->second;
  }
  if (!domain.empty() && domain != "ai.onnx") return nullptr;
  static const auto* table = new std::map<std::string, std::vector<int>, std::less<>>{
      {"Reshape", {1}},
      {"Expand", {1}},
      {"Slice", {1, 2, 3, 4}},
      {"Tile", {1}},
      {"ConstantOfShape", {0}},
      {"Range", {0, 1, 2}},
      {"Resize", {2, 3}},
      {"Upsample", {1}},
      {"TopK", {1}},
      {"Pad", {1, 3}},
      {"OneHot", {1}},
      {"Squeeze", {1}},
      {"Unsqueeze", {1}},
      {"Split", {1}},
      {"ReduceSum", {1}},
      {"ReduceMean", {1}},
      {"ReduceMax", {1}},
      {"ReduceMin", {1}},
      {"ReduceProd", {1}},
      {"ReduceL1", {1}},
      {"ReduceL2", {1}},
      {"ReduceLogSum", {1}},
      {"ReduceLogSumExp", {1}},
      {"ReduceSumSquare", {1}},
      {"CenterCropPad", {1}},
      {"Col2Im", {1, 2}},
      {"MaxUnpool", {2}},
      {"NonMaxSuppression", {2}},
      {"Compress", {1}},
      {"If", {0}},
      {"Loop", {0}},
      {"DFT", {1}},
      {"STFT", {1, 3}},
  };
  auto it = table->find(op_type);
  return it == table->end() ? nullptr : &it->second;
}

Contract BuildContract(const onnx::ModelProto& model, const InferenceResult& result) {
  std::optional<symbolic::SymbolContext::Scope> scope;
  if (result.symbol_context) scope.emplace(*result.symbol_context);
  Contract c;
  const onnx::GraphProto& graph = model.graph();
  std::unordered_set<std::string> initializers;
  for (const auto& init : graph.initializer()) initializers.insert(init.name());
  for (const auto& sparse : graph.sparse_initializer()) {
    initializers.insert(sparse.values().name());
  }

  // The inputs and the symbols of their shapes.
  std::map<std::string, ContractSymbol> symbols;
  std::unordered_map<std::string, int> input_index;
  for (const auto& vi : graph.input()) {
    ContractInput in;
    in.name = vi.name();
    in.has_initializer = initializers.count(vi.name()) > 0;
    if (vi.type().has_tensor_type()) {
      const auto& t = vi.type().tensor_type();
      if (t.elem_type() != 0) in.elem_type = DataTypeName(t.elem_type());
      if (t.has_shape()) {
        in.shape.emplace();
        int axis = 0;
        for (const auto& d : t.shape().dim()) {
          Dim dim;
          if (d.has_dim_value() && d.dim_value() >= 0) {
            dim = Dim::Const(d.dim_value());
          } else if (d.has_dim_param() && !d.dim_param().empty()) {
            dim = DimFromParam(d.dim_param());
          }
          in.shape->push_back(dim.is_unknown() ? "?" : dim.ToString());
          in.dims.push_back(dim);
          if (!dim.is_unknown() && !dim.is_const()) {
            for (const auto& s : dim.Symbols()) {
              ContractSymbol& cs = symbols[s];
              cs.name = s;
              cs.uses.emplace_back(in.name, axis);
            }
          }
          ++axis;
        }
      }
    }
    input_index[in.name] = static_cast<int>(c.inputs.size());
    c.inputs.push_back(std::move(in));
  }

  // Each symbol's value, bounds and facts.
  std::unordered_map<std::string, const SymbolInfo*> infos;
  for (const auto& info : result.symbols) infos[info.name] = &info;
  std::unordered_map<std::string, const symbolic::SymbolBounds*> bounds;
  for (const auto& b : result.bounds) bounds[b.symbol] = &b;
  for (auto& [name, cs] : symbols) {
    if (auto it = infos.find(name); it != infos.end() && !it->second->value.is_unknown()) {
      cs.value_dim = it->second->value;
      cs.value = cs.value_dim.ToString();
    }
    // Bounds are kept per class, under its representative: the symbol itself, or the
    // symbol its value is.
    auto b = bounds.find(name);
    if (b == bounds.end() && cs.value_dim.is_symbol()) {
      b = bounds.find(std::string(cs.value_dim.symbol_name()));
    }
    if (b == bounds.end() && cs.value_dim.is_const()) {
      cs.min = *cs.value_dim.const_value();
      cs.max = cs.min;
    } else if (b != bounds.end()) {
      cs.min = b->second->lo;
      cs.max = b->second->hi;
      cs.min_assumed = b->second->lo_assumed;
      cs.max_assumed = b->second->hi_assumed;
      cs.bound_origins = b->second->origins;
    }
    for (size_t i = 0; i < result.fact_dims.size(); ++i) {
      const auto& f = result.fact_dims[i];
      // (A copy: clang before 16 cannot capture a structured binding.)
      auto mentions = [&, symbol = name](Dim d) {
        if (d.is_unknown()) return false;
        const auto s = d.Symbols();
        return std::binary_search(s.begin(), s.end(), symbol);
      };
      if (mentions(f.lhs) || mentions(f.rhs)) cs.facts.push_back(f.ToString());
    }
    c.symbols.push_back(std::move(cs));
  }

  for (const auto& [term, modulus] : result.multiples) {
    c.divisibility.push_back(StrCat("Mod(", term.ToString(), ", ", modulus, ") == 0"));
  }
  std::sort(c.divisibility.begin(), c.divisibility.end());
  c.facts = result.facts;
  c.relations = result.relations;
  c.conditions = result.conditions;

  // The inputs whose values reach a shape: from every shape position of the main graph's
  // nodes, back through the producers of each value read (not through operators that read
  // only shapes), to the graph inputs. Subgraphs are not followed.
  std::unordered_map<std::string, const onnx::NodeProto*> producer;
  for (const auto& node : graph.node()) {
    for (const auto& out : node.output()) {
      if (!out.empty()) producer[out] = &node;
    }
  }
  for (const auto& node : graph.node()) {
    const std::vector<int>* positions = ShapeInputPositions(node.domain(), node.op_type());
    if (!positions) continue;
    for (int pos : *positions) {
      if (pos >= node.input_size() || node.input(pos).empty()) continue;
      std::vector<std::string> stack = {node.input(pos)};
      std::unordered_set<std::string> seen(stack.begin(), stack.end());
      std::set<int> reached;
      while (!stack.empty()) {
        const std::string value = std::move(stack.back());
        stack.pop_back();
        if (auto in = input_index.find(value); in != input_index.end()) {
          reached.insert(in->second);
        }
        auto p = producer.find(value);
        if (p == producer.end() ||
            ((p->second->domain().empty() || p->second->domain() == "ai.onnx") &&
             ReadsOnlyShapes(p->second->op_type()))) {
          continue;
        }
        for (const auto& v : p->second->input()) {
          if (!v.empty() && seen.insert(v).second) stack.push_back(v);
        }
      }
      for (int i : reached) {
        c.inputs[i].shape_consumers.push_back(
            node.name().empty() && node.output_size() > 0
                ? StrCat("node of output '", node.output(0), "' (", node.op_type(), ") input ", pos)
                : StrCat("node '", node.name(), "' (", node.op_type(), ") input ", pos));
      }
    }
  }
  return c;
}

// ---- Profiles -------------------------------------------------------------------------------

std::optional<SymbolRange> ParseSymbolRange(std::string_view text, std::string* error) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    *error = StrCat("range '", text, "': expected SYMBOL=MIN:OPT:MAX or SYMBOL=VALUE");
    return std::nullopt;
  }
  SymbolRange r;
  r.symbol = std::string(text.substr(0, eq));
  std::string_view rest = text.substr(eq + 1);
  std::vector<int64_t> parts;
  while (true) {
    const size_t colon = rest.find(':');
    std::string_view part = rest.substr(0, colon);
    int64_t v = 0;
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size() || v < 0) {
      *error = StrCat("range '", text, "': '", part, "' is not a non-negative integer");
      return std::nullopt;
    }
    parts.push_back(v);
    if (colon == std::string_view::npos) break;
    rest = rest.substr(colon + 1);
  }
  if (parts.size() == 1) {
    r.min = r.opt = r.max = parts[0];
  } else if (parts.size() == 3) {
    r.min = parts[0];
    r.opt = parts[1];
    r.max = parts[2];
  } else {
    *error = StrCat("range '", text, "': expected SYMBOL=MIN:OPT:MAX or SYMBOL=VALUE");
    return std::nullopt;
  }
  if (!(r.min <= r.opt && r.opt <= r.max)) {
    *error = StrCat("range '", text, "': needs MIN <= OPT <= MAX");
    return std::nullopt;
  }
  return r;
}

namespace {

using Values = std::map<std::string, int64_t, std::less<>>;

// The value of `symbol` that makes `lhs - rhs` zero when every other symbol has its value,
// if the difference is linear in it there (checked at three points) and the root is a
// non-negative integer that evaluates to zero.
std::optional<int64_t> SolveFor(Dim lhs, Dim rhs, const std::string& symbol, Values values) {
  auto f = [&](int64_t v) -> std::optional<int64_t> {
    values[symbol] = v;
    auto a = symbolic::Evaluate(lhs, values);
    auto b = symbolic::Evaluate(rhs, values);
    if (!a || !b) return std::nullopt;
    return *a - *b;
  };
  auto f0 = f(0), f1 = f(1), f2 = f(2);
  if (!f0 || !f1 || !f2) return std::nullopt;
  const int64_t slope = *f1 - *f0;
  if (slope == 0 || *f2 - *f1 != slope || *f0 % slope != 0) return std::nullopt;
  const int64_t root = -*f0 / slope;
  if (root < 0) return std::nullopt;
  auto check = f(root);
  if (!check || *check != 0) return std::nullopt;
  return root;
}

std::string Join(const std::vector<int64_t>& shape, const char* sep) {
  std::string out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += sep;
    out += std::to_string(shape[i]);
  }
  return out;
}

}  // namespace

Profile MakeProfile(const Contract& contract, const InferenceResult& result,
                    const std::vector<SymbolRange>& ranges) {
  std::optional<symbolic::SymbolContext::Scope> scope;
  if (result.symbol_context) scope.emplace(*result.symbol_context);
  Profile p;
  for (const auto& r : ranges) {
    p.values[0][r.symbol] = r.min;
    p.values[1][r.symbol] = r.opt;
    p.values[2][r.symbol] = r.max;
  }
  // The equations that may fix a symbol: each symbol's value, then the model's facts.
  std::vector<std::pair<Dim, Dim>> equations;
  for (const auto& info : result.symbols) {
    if (!info.value.is_unknown()) equations.emplace_back(Dim::Symbol(info.name), info.value);
  }
  for (const auto& f : result.fact_dims) equations.emplace_back(f.lhs, f.rhs);
  // Derive until nothing more is: an equation with exactly one symbol without a value is
  // solved for it at each point.
  for (bool progress = true; progress;) {
    progress = false;
    for (const auto& [lhs, rhs] : equations) {
      if (lhs.is_unknown() || rhs.is_unknown()) continue;
      std::set<std::string> missing;
      for (Dim d : {lhs, rhs}) {
        for (const auto& s : d.Symbols()) {
          if (!p.values[0].count(s)) missing.insert(s);
        }
      }
      if (missing.size() != 1) continue;
      const std::string symbol = *missing.begin();
      std::array<int64_t, 3> solved{};
      bool ok = true;
      for (int i = 0; i < 3 && ok; ++i) {
        auto v = SolveFor(lhs, rhs, symbol, p.values[i]);
        if (v) solved[i] = *v;
        ok = v.has_value();
      }
      if (!ok) continue;
      for (int i = 0; i < 3; ++i) p.values[i][symbol] = solved[i];
      p.derived.push_back(StrCat(symbol, " from ", lhs.ToString(), " == ", rhs.ToString()));
      progress = true;
    }
  }
  for (const auto& s : contract.symbols) {
    if (!p.values[0].count(s.name)) {
      p.errors.push_back(StrCat("symbol '", s.name, "' has no --range and no fact derives it"));
    }
  }
  for (const auto& in : contract.inputs) {
    if (in.has_initializer || !in.shape) continue;
    bool symbolic_shape = false;
    Profile::InputShapes shapes;
    shapes.input = in.name;
    bool complete = true;
    for (size_t axis = 0; axis < in.dims.size(); ++axis) {
      const Dim d = in.dims[axis];
      if (d.is_unknown()) {
        p.errors.push_back(StrCat("input '", in.name, "' dim ", axis,
                                  " is unknown: give it a symbol or a size (--input-shape)"));
        complete = false;
        break;
      }
      if (!d.is_const()) symbolic_shape = true;
      for (int i = 0; i < 3; ++i) {
        auto v = symbolic::Evaluate(d, p.values[i]);
        if (!v) {
          complete = false;
          break;
        }
        shapes.shapes[i].push_back(*v);
      }
      if (!complete) break;
    }
    if (complete && symbolic_shape) p.inputs.push_back(std::move(shapes));
  }
  return p;
}

std::string TrtexecFlags(const Profile& profile) {
  static constexpr std::array<const char*, 3> kFlags = {
      "--minShapes=", "--optShapes=", "--maxShapes="};
  std::string out;
  for (int i = 0; i < 3; ++i) {
    if (i) out += ' ';
    out += kFlags[i];
    for (size_t k = 0; k < profile.inputs.size(); ++k) {
      if (k) out += ',';
      out += profile.inputs[k].input + ":" + Join(profile.inputs[k].shapes[i], "x");
    }
  }
  return out;
}

std::string ProfileViolation::ToString() const {
  return StrCat(point, ": ", what, " fails ", values, " (", origin, ")");
}

std::vector<ProfileViolation> CheckProfile(const Profile& profile, const InferenceResult& result) {
  std::optional<symbolic::SymbolContext::Scope> scope;
  if (result.symbol_context) scope.emplace(*result.symbol_context);
  std::vector<ProfileViolation> out;
  auto at = [](const std::vector<Dim>& dims, const Values& values) {
    std::set<std::string> names;
    for (Dim d : dims) {
      for (const auto& s : d.Symbols()) names.insert(s);
    }
    std::string text = "at ";
    bool first = true;
    for (const auto& n : names) {
      if (!first) text += ", ";
      first = false;
      auto it = values.find(n);
      text += StrCat(n, " = ", it == values.end() ? std::string("?") : std::to_string(it->second));
    }
    return text;
  };
  for (int i = 0; i < 3; ++i) {
    const Values& values = profile.values[i];
    std::set<std::string> broken_facts;  // "lhs == rhs", not to repeat them as multiples
    for (const auto& f : result.fact_dims) {
      auto a = symbolic::Evaluate(f.lhs, values);
      auto b = symbolic::Evaluate(f.rhs, values);
      if (a && b && *a != *b) {
        broken_facts.insert(StrCat(f.lhs.ToString(), " == ", f.rhs.ToString()));
        out.push_back(
            {kProfilePoints[i],
             StrCat(f.lhs.ToString(), " == ", f.rhs.ToString(), " (", *a, " != ", *b, ")"),
             at({f.lhs, f.rhs}, values), f.origin});
      }
    }
    for (const auto& b : result.bounds) {
      auto it = values.find(b.symbol);
      if (it == values.end()) continue;
      const int64_t v = it->second;
      std::string origin;
      for (const auto& o : b.origins) origin += (origin.empty() ? "" : "; ") + o;
      if (v < b.lo) {
        out.push_back({kProfilePoints[i], StrCat(b.symbol, " >= ", b.lo),
                       StrCat("at ", b.symbol, " = ", v), origin});
      }
      if (b.hi && v > *b.hi) {
        out.push_back({kProfilePoints[i], StrCat(b.symbol, " <= ", *b.hi),
                       StrCat("at ", b.symbol, " = ", v), origin});
      }
    }
    for (const auto& r : result.relation_dims) {
      auto v = symbolic::Evaluate(r.expr, values);
      if (!v) continue;
      if ((r.lo && *v < *r.lo) || (r.hi && *v > *r.hi)) {
        std::string text = r.ToString();
        text = text.substr(0, text.size() - r.origin.size() - 3);  // without " (origin)"
        out.push_back({kProfilePoints[i], StrCat(text, " (", r.expr.ToString(), " = ", *v, ")"),
                       at({r.expr}, values), r.origin});
      }
    }
    for (const auto& [term, modulus] : result.multiples) {
      auto v = symbolic::Evaluate(term, values);
      const std::string text = StrCat("Mod(", term.ToString(), ", ", modulus, ") == 0");
      if (v && *v % modulus != 0 && !broken_facts.count(text)) {
        out.push_back({kProfilePoints[i], StrCat(text, " (", term.ToString(), " = ", *v, ")"),
                       at({term}, values), "a divisibility the model's facts require"});
      }
    }
  }
  return out;
}

}  // namespace onnx_infer
