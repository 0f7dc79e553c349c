#include "onnx_infer/inference/contract.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/data_type.h"
#include "onnx_infer/schema/diagnostic.h"
#include "onnx_infer/schema/shape_inputs.h"
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

// A symbol's bounds into its contract entry: the values, whether each is the user's, and
// their origins.
void SetBounds(const symbolic::SymbolBounds& b, ContractSymbol& cs) {
  cs.min = b.lo;
  cs.max = b.hi;
  cs.min_assumed = b.lo_assumed;
  cs.max_assumed = b.hi_assumed;
  cs.bound_origins = b.origins;
}

}  // namespace

std::string BindingCompletion::Derived::ToString() const {
  return StrCat(symbol, " = ", value,
                from.empty() ? "" : StrCat(" (from ", StrJoin(from, "; "), ")"));
}

BindingCompletion CompleteBinding(const Contract& contract, const InferenceResult& result,
                                  const std::map<std::string, int64_t, std::less<>>& bind) {
  std::optional<symbolic::SymbolContext::Scope> scope;
  if (result.symbol_context) scope.emplace(*result.symbol_context);
  BindingCompletion out;
  for (const ContractSymbol& cs : contract.symbols) {
    if (bind.count(cs.name)) continue;
    if (cs.value.empty()) {
      out.free.push_back(cs.name);
      continue;
    }
    BindingCompletion::Derived d;
    d.symbol = cs.name;
    d.value = cs.value;
    // The facts that mention it, and the bindings of the other symbols those mention.
    std::set<std::string> bound_used;
    for (const auto& f : result.fact_dims) {
      std::vector<std::string> names;
      for (Dim side : {f.lhs, f.rhs}) {
        if (side.is_unknown()) continue;
        for (auto& n : side.Symbols()) names.push_back(std::move(n));
      }
      if (std::find(names.begin(), names.end(), cs.name) == names.end()) continue;
      d.from.push_back(f.ToString());
      for (const auto& n : names) {
        if (bind.count(n)) bound_used.insert(n);
      }
    }
    for (const auto& n : bound_used)
      d.from.push_back(StrCat(n, " = ", bind.find(n)->second, " (bind)"));
    out.derived.push_back(std::move(d));
  }
  return out;
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
      SetBounds(*b->second, cs);
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

  for (const auto& b : result.bounds) {
    if (symbols.count(b.symbol) || (b.lo == 0 && !b.hi)) continue;
    bool of_inputs = false;  // a class an input symbol joined is listed under that symbol
    for (const auto& cs : c.symbols) {
      if (cs.value_dim.is_symbol() && cs.value_dim.symbol_name() == b.symbol) of_inputs = true;
    }
    if (of_inputs) continue;
    ContractSymbol cs;
    cs.name = b.symbol;
    SetBounds(b, cs);
    c.introduced_symbols.push_back(std::move(cs));
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
    const std::vector<int>& positions =
        ShapeValueInputs(node.domain(), node.op_type(), ImportedOpset(model, node.domain()));
    for (int pos : positions) {
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

namespace {

// A symbol name made of `text`: letters, digits and '_' (others become '_'), not starting
// with a digit.
std::string SymbolStemOf(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += ok ? c : '_';
  }
  if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out = "v" + out;
  return out;
}

// `d` with each value element's symbol written as its name ("shape__value0" as "shape[0]").
std::string DisplayDim(Dim d, const std::map<std::string, Dim, std::less<>>& names) {
  return symbolic::Substitute(d, names).ToString();
}

// The value of `symbol` that a fact of `facts` gives it, affine in it with coefficient 1 or
// -1 (shape__value0 == batch, 2 + shape__value1 == seq), when the rest satisfies `usable`;
// unknown otherwise. Affine is proven, not sampled: f(symbol + 1) - f(symbol) is a constant
// as expressions, so the root is the only one.
template <typename Usable>
Dim SolvedFromFacts(const std::vector<symbolic::Fact>& facts, const std::string& symbol,
                    const Usable& usable) {
  const Dim x = Dim::Symbol(symbol);
  for (const auto& f : facts) {
    if (f.lhs.is_unknown() || f.rhs.is_unknown()) continue;
    const Dim diff = f.lhs - f.rhs;
    if (diff.is_unknown()) continue;
    const auto s = diff.Symbols();
    if (!std::binary_search(s.begin(), s.end(), symbol)) continue;
    const Dim d0 = symbolic::Substitute(diff, {{symbol, Dim::Const(0)}});
    const Dim slope = symbolic::Substitute(diff, {{symbol, x + Dim::Const(1)}}) - diff;
    if (d0.is_unknown() || slope.is_unknown() || !slope.is_const()) continue;
    const int64_t c = *slope.const_value();
    if (c != 1 && c != -1) continue;
    const Dim value = c == 1 ? Dim::Const(0) - d0 : d0;
    if (!usable(value)) continue;
    const Dim check = symbolic::Substitute(diff, {{symbol, value}});
    if (check.is_unknown() || check.const_value() != 0) continue;
    return value;
  }
  return Dim();
}

}  // namespace

void AddShapeInputValues(const onnx::ModelProto& model, const SchemaRegistry& registry,
                         const InferenceOptions& options, const InferenceResult& result,
                         Contract* contract) {
  std::optional<symbolic::SymbolContext::Scope> scope;
  if (result.symbol_context) scope.emplace(*result.symbol_context);
  const onnx::GraphProto& graph = model.graph();
  // Inputs whose value the options give: their elements are those constants.
  std::map<std::string, const KnownInputValue*> given;
  for (const auto& v : options.input_values) {
    if (!v.name.empty()) {
      given[v.name] = &v;
    } else if (v.index >= 0 && v.index < graph.input_size()) {
      given[graph.input(v.index).name()] = &v;
    }
  }
  std::set<std::string> taken;
  for (const auto& info : result.symbols) taken.insert(info.name);
  for (const auto& s : contract->symbols) taken.insert(s.name);
  InferenceOptions probe_options = options;
  probe_options.symbol_context = result.symbol_context;
  probe_options.record_value_types = false;
  probe_options.stream_new_value_info = false;
  probe_options.record_provenance = false;
  std::map<std::string, Dim, std::less<>> names;  // element symbol -> Dim::Symbol(name)
  std::vector<std::pair<ContractInput*, ContractValueElement*>> probed;
  for (int i = 0; i < graph.input_size() && i < static_cast<int>(contract->inputs.size()); ++i) {
    ContractInput& in = contract->inputs[i];
    const onnx::ValueInfoProto& vi = graph.input(i);
    if (in.shape_consumers.empty() || in.has_initializer || !in.shape || in.shape->size() > 1 ||
        !vi.type().has_tensor_type() || !IsIntegerDataType(vi.type().tensor_type().elem_type())) {
      continue;
    }
    const int64_t count = in.dims.empty() ? 1 : in.dims[0].const_value().value_or(-1);
    if (count < 0 || count > 64) continue;  // a length only known at run time is no shape tensor
    in.shape_tensor = true;
    auto g = given.find(in.name);
    std::optional<std::vector<int64_t>> values;
    if (g != given.end()) {
      // Its elements in order (a flat list whose dims come from the declaration, fit_dims):
      // constant integers, or integral reals (a front end may give numbers as reals).
      const ConstValue& v = g->second->value;
      values.emplace();
      for (Dim d : v.ints) {
        auto c = d.is_unknown() ? std::nullopt : d.const_value();
        if (!c) {
          values.reset();
          break;
        }
        values->push_back(*c);
      }
      for (size_t k = 0; values && k < v.reals.size(); ++k) {
        const double r = v.reals[k];
        if (!(std::fabs(r) < 9.0e18) || r != std::floor(r)) {
          values.reset();
          break;
        }
        values->push_back(static_cast<int64_t>(r));
      }
    }
    if (g != given.end() && (!values || static_cast<int64_t>(values->size()) != count)) {
      values.reset();  // a value given in another form: its elements stay free
    }
    KnownInputValue probe;
    probe.name = in.name;
    if (!in.dims.empty()) probe.value.dims = {count};
    for (int64_t k = 0; k < count; ++k) {
      ContractValueElement e;
      e.name = StrCat(in.name, "[", k, "]");
      if (values) {
        e.value = std::to_string((*values)[k]);
        e.value_dim = Dim::Const((*values)[k]);
        e.min = (*values)[k];
        e.max = e.min;
        e.facts.push_back(
            StrCat(e.name, " == ", e.value, " (the value given for input '", in.name, "')"));
        in.value_elements.push_back(std::move(e));
        continue;
      }
      std::string symbol = StrCat(SymbolStemOf(in.name), "__value", k);
      for (int n = 2; taken.count(symbol); ++n) {
        symbol = StrCat(SymbolStemOf(in.name), "__value", k, "_", n);
      }
      taken.insert(symbol);
      e.symbol = symbol;
      // The element is 1 + symbol: a size of at least 1 (0 is special to Reshape, which
      // copies the input's dim there), so the rules take it for what it is.
      names[symbol] = Dim::Symbol(e.name) - Dim::Const(1);
      probe.value.ints.push_back(Dim::Const(1) + Dim::Symbol(symbol));
      in.value_elements.push_back(std::move(e));
    }
    if (!values && g == given.end()) probe_options.input_values.push_back(std::move(probe));
  }
  if (names.empty()) return;
  for (auto& in : contract->inputs) {
    for (auto& e : in.value_elements) {
      if (!e.symbol.empty()) probed.emplace_back(&in, &e);
    }
  }
  onnx::ModelProto copy = model;
  // Without the main graph's value_info: the annotated model's entries are what the model's
  // own run wrote (or not, when it streamed them), so that the probing run is the same
  // whichever way the model was annotated.
  copy.mutable_graph()->clear_value_info();
  const InferenceResult probe = InferShapes(copy, registry, probe_options);
  if (probe.CountOf(Severity::kError) > result.CountOf(Severity::kError)) {
    // The symbolic values broke something the model's own run did not: nothing is learnt
    // from that run, and every element stays free.
    contract->value_probe_failed = true;
    return;
  }
  std::set<std::string> input_symbols;
  for (const auto& s : contract->symbols) input_symbols.insert(s.name);
  auto only_input_symbols = [&](Dim d) {
    if (d.is_unknown()) return false;
    for (const auto& s : d.Symbols()) {
      if (!input_symbols.count(s)) return false;
    }
    return true;
  };
  std::unordered_map<std::string, Dim> probe_values;
  for (const auto& info : probe.symbols) probe_values[info.name] = info.value;
  std::unordered_map<std::string, const symbolic::SymbolBounds*> bounds;
  for (const auto& b : probe.bounds) bounds[b.symbol] = &b;
  for (const auto& f : probe.fact_dims) {
    bool mentions = false;
    for (Dim side : {f.lhs, f.rhs}) {
      if (side.is_unknown()) continue;
      for (const auto& s : side.Symbols()) mentions = mentions || names.count(s) > 0;
    }
    if (mentions) contract->value_facts.push_back(f);
  }
  // Each contract symbol's value in the probing run is an equation too (batch == 1 +
  // shape__value0 when the unifier bound batch to it).
  std::vector<symbolic::Fact> equations = contract->value_facts;
  for (const auto& s : contract->symbols) {
    auto it = probe_values.find(s.name);
    if (it != probe_values.end() && !it->second.is_unknown()) {
      equations.push_back({Dim::Symbol(s.name), it->second, ""});
    }
  }
  for (const auto& f : probe.fact_dims) equations.push_back(f);
  // Every other symbol the equations fix in the input symbols (an element, or total ==
  // past + seq of a declared output), solved one at a time and replaced in the equations
  // until nothing more is.
  std::map<std::string, Dim, std::less<>> fixed;
  for (bool progress = true; progress;) {
    progress = false;
    std::set<std::string> open;
    for (const auto& f : equations) {
      for (Dim side : {f.lhs, f.rhs}) {
        if (side.is_unknown()) continue;
        for (auto& n : side.Symbols()) {
          if (!input_symbols.count(n) && !fixed.count(n)) open.insert(std::move(n));
        }
      }
    }
    for (const auto& n : open) {
      Dim v = SolvedFromFacts(equations, n, only_input_symbols);
      if (v.is_unknown()) continue;
      fixed[n] = v;
      const std::map<std::string, Dim, std::less<>> one = {{n, v}};
      for (auto& f : equations) {
        if (!f.lhs.is_unknown()) f.lhs = symbolic::Substitute(f.lhs, one);
        if (!f.rhs.is_unknown()) f.rhs = symbolic::Substitute(f.rhs, one);
      }
      progress = true;
    }
  }
  for (auto& [in, e] : probed) {
    // Its symbol's value: the one the probing run resolves it to, or one the equations give
    // it, in the input symbols only; the element is 1 + that.
    Dim value = probe_values.count(e->symbol) ? probe_values[e->symbol] : Dim();
    if (!only_input_symbols(value) && fixed.count(e->symbol)) value = fixed[e->symbol];
    if (only_input_symbols(value)) {
      e->value_dim = Dim::Const(1) + value;
      e->value = e->value_dim.ToString();
    }
    auto b = bounds.find(e->symbol);
    if (b != bounds.end()) {
      e->min = b->second->lo + 1;
      e->max = b->second->hi ? std::optional<int64_t>(*b->second->hi + 1) : std::nullopt;
      e->bound_origins = b->second->origins;
    } else {
      e->min = 1;
    }
    for (const auto& f : contract->value_facts) {
      bool mentions = false;
      for (Dim side : {f.lhs, f.rhs}) {
        if (side.is_unknown()) continue;
        const auto s = side.Symbols();
        mentions = mentions || std::binary_search(s.begin(), s.end(), e->symbol);
      }
      if (mentions) {
        e->facts.push_back(StrCat(DisplayDim(f.lhs, names), " == ", DisplayDim(f.rhs, names), " (",
                                  f.origin, ")"));
      }
    }
  }
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

namespace {

// Solves, until nothing more is, each equation (a symbol's value, then the model's facts)
// with exactly one symbol still without a value for it, at each point.
void DeriveSymbols(const InferenceResult& result, Profile* p) {
  std::vector<std::pair<Dim, Dim>> equations;
  for (const auto& info : result.symbols) {
    if (!info.value.is_unknown()) equations.emplace_back(Dim::Symbol(info.name), info.value);
  }
  for (const auto& f : result.fact_dims) equations.emplace_back(f.lhs, f.rhs);
  for (bool progress = true; progress;) {
    progress = false;
    for (const auto& [lhs, rhs] : equations) {
      if (lhs.is_unknown() || rhs.is_unknown()) continue;
      std::set<std::string> missing;
      for (Dim d : {lhs, rhs}) {
        for (const auto& s : d.Symbols()) {
          if (!p->values[0].count(s)) missing.insert(s);
        }
      }
      if (missing.size() != 1) continue;
      const std::string symbol = *missing.begin();
      std::array<int64_t, 3> solved{};
      bool ok = true;
      for (int i = 0; i < 3 && ok; ++i) {
        auto v = SolveFor(lhs, rhs, symbol, p->values[i]);
        if (v) solved[i] = *v;
        ok = v.has_value();
      }
      if (!ok) continue;
      for (int i = 0; i < 3; ++i) p->values[i][symbol] = solved[i];
      p->derived.push_back(StrCat(symbol, " from ", lhs.ToString(), " == ", rhs.ToString()));
      progress = true;
    }
  }
}

// The input shapes at each point, for the inputs whose shapes have a symbol; an unknown dim
// is an error.
void FillInputShapes(const Contract& contract, Profile* p) {
  for (const auto& in : contract.inputs) {
    if (in.has_initializer || !in.shape) continue;
    bool symbolic_shape = false;
    Profile::InputShapes shapes;
    shapes.input = in.name;
    bool complete = true;
    for (size_t axis = 0; axis < in.dims.size(); ++axis) {
      const Dim d = in.dims[axis];
      if (d.is_unknown()) {
        p->errors.push_back(StrCat("input '", in.name, "' dim ", axis,
                                   " is unknown: give it a symbol or a size (--input-shape)"));
        complete = false;
        break;
      }
      if (!d.is_const()) symbolic_shape = true;
      for (int i = 0; i < 3; ++i) {
        auto v = symbolic::Evaluate(d, p->values[i]);
        if (!v) {
          complete = false;
          break;
        }
        shapes.shapes[i].push_back(*v);
      }
      if (!complete) break;
    }
    if (complete && symbolic_shape) p->inputs.push_back(std::move(shapes));
  }
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::string JoinOrigins(const std::vector<std::string>& origins) {
  std::string out;
  for (const auto& o : origins) out += (out.empty() ? "" : "; ") + o;
  return out;
}

}  // namespace

Profile MakeProfile(const Contract& contract, const InferenceResult& result,
                    const std::vector<SymbolRange>& ranges) {
  std::optional<symbolic::SymbolContext::Scope> scope;
  if (result.symbol_context) scope.emplace(*result.symbol_context);
  Profile p;
  std::map<std::string, const SymbolRange*> element_ranges;  // "shape[0]" -> its range
  for (const auto& in : contract.inputs) {
    for (const auto& e : in.value_elements) {
      for (const auto& r : ranges) {
        if (r.symbol == e.name) element_ranges[e.name] = &r;
      }
    }
  }
  for (const auto& r : ranges) {
    if (element_ranges.count(r.symbol)) continue;
    p.values[0][r.symbol] = r.min;
    p.values[1][r.symbol] = r.opt;
    p.values[2][r.symbol] = r.max;
    // A user's max above the model's own bound: kept (the user said so), and said; the
    // check reports it as a violation.
    for (const auto& s : contract.symbols) {
      if (s.name == r.symbol && s.max && !s.max_assumed && r.max > *s.max) {
        p.warnings.push_back(StrCat("--range ", r.symbol, ": max ", r.max,
                                    " exceeds the model's bound ", r.symbol, " <= ", *s.max, " (",
                                    JoinOrigins(s.bound_origins), ")"));
      }
    }
  }
  DeriveSymbols(result, &p);
  // A symbol without a range that nothing derives takes its bounds when they are finite:
  // min = max(lower bound, 1) (an empty dim is rarely what a deployment means), opt = max =
  // the upper bound (docs/deploy.md#ranges-from-the-models-bounds). One at a time, in
  // order, deriving after each: a bounded symbol may fix others.
  for (bool progress = true; progress;) {
    progress = false;
    for (const auto& s : contract.symbols) {
      if (p.values[0].count(s.name) || !s.max) continue;
      const int64_t hi = *s.max;
      const int64_t lo = std::min(hi, std::max<int64_t>(s.min, 1));
      p.values[0][s.name] = lo;
      p.values[1][s.name] = hi;
      p.values[2][s.name] = hi;
      p.from_bounds.push_back(StrCat(s.name, " = ", lo, ":", hi, ":", hi, " from its bounds ",
                                     s.min, " <= ", s.name, " <= ", hi, " (",
                                     JoinOrigins(s.bound_origins), ")"));
      DeriveSymbols(result, &p);
      progress = true;
      break;
    }
  }
  for (const auto& s : contract.symbols) {
    if (!p.values[0].count(s.name)) {
      p.errors.push_back(StrCat("symbol '", s.name,
                                "' has no --range, no fact derives it and it has no finite bound"));
    }
  }
  FillInputShapes(contract, &p);
  // The values of the shape-tensor inputs: an element's range, else what the model forces
  // it to at the point; a free element without a range is an error.
  for (const auto& in : contract.inputs) {
    if (!in.shape_tensor) continue;
    Profile::InputShapes values;
    values.input = in.name;
    std::vector<std::string> missing;
    for (const auto& e : in.value_elements) {
      if (auto r = element_ranges.find(e.name); r != element_ranges.end()) {
        values.shapes[0].push_back(r->second->min);
        values.shapes[1].push_back(r->second->opt);
        values.shapes[2].push_back(r->second->max);
        continue;
      }
      if (e.value_dim.is_unknown()) {
        missing.push_back(e.name);
        continue;
      }
      for (int i = 0; i < 3; ++i) {
        // (A symbol without a value is an error of its own, above.)
        if (auto v = symbolic::Evaluate(e.value_dim, p.values[i])) values.shapes[i].push_back(*v);
      }
    }
    if (!missing.empty()) {
      std::vector<std::string> flags;
      for (const auto& m : missing) flags.push_back(StrCat("--range '", m, "=MIN:OPT:MAX'"));
      p.errors.push_back(StrCat("shape input '", in.name, "': its value ",
                                missing.size() == 1 ? "element " : "elements ",
                                StrJoin(missing, ", "), missing.size() == 1 ? " is" : " are",
                                " not fixed by the model (TensorRT needs the values of a shape "
                                "input in the profile): give ",
                                StrJoin(flags, " ")));
      continue;
    }
    if (values.shapes[0].size() == in.value_elements.size() &&
        values.shapes[1].size() == in.value_elements.size() &&
        values.shapes[2].size() == in.value_elements.size()) {
      p.shape_values.push_back(std::move(values));
    }
  }
  return p;
}

namespace {

// The profile's entries in the order the formats list them: the inputs' shapes, then the
// shape-tensor inputs' values (written the same way).
std::vector<const Profile::InputShapes*> Entries(const Profile& profile) {
  std::vector<const Profile::InputShapes*> out;
  for (const auto& in : profile.inputs) out.push_back(&in);
  for (const auto& in : profile.shape_values) out.push_back(&in);
  return out;
}

}  // namespace

std::string TrtexecFlags(const Profile& profile) {
  static constexpr std::array<const char*, 3> kFlags = {
      "--minShapes=", "--optShapes=", "--maxShapes="};
  const auto entries = Entries(profile);
  std::string out;
  for (int i = 0; i < 3; ++i) {
    if (i) out += ' ';
    out += kFlags[i];
    for (size_t k = 0; k < entries.size(); ++k) {
      if (k) out += ',';
      out += entries[k]->input + ":" + Join(entries[k]->shapes[i], "x");
    }
  }
  return out;
}

std::optional<ProfileFormat> ParseProfileFormat(std::string_view text) {
  if (text == "trtexec") return ProfileFormat::kTrtexec;
  if (text == "ort-trt") return ProfileFormat::kOrtTrt;
  if (text == "polygraphy") return ProfileFormat::kPolygraphy;
  if (text == "json") return ProfileFormat::kJson;
  return std::nullopt;
}

const char* ProfileFormatName(ProfileFormat format) {
  switch (format) {
    case ProfileFormat::kTrtexec:
      return "trtexec";
    case ProfileFormat::kOrtTrt:
      return "ort-trt";
    case ProfileFormat::kPolygraphy:
      return "polygraphy";
    case ProfileFormat::kJson:
      return "json";
  }
  return "?";
}

std::string FormatProfile(const Profile& profile, ProfileFormat format) {
  if (format == ProfileFormat::kOrtTrt) {
    static constexpr std::array<const char*, 3> kKeys = {
        "trt_profile_min_shapes=", "trt_profile_opt_shapes=", "trt_profile_max_shapes="};
    const auto entries = Entries(profile);
    std::string out;
    for (int i = 0; i < 3; ++i) {
      if (i) out += '\n';
      out += kKeys[i];
      for (size_t k = 0; k < entries.size(); ++k) {
        if (k) out += ',';
        out += entries[k]->input + ":" + Join(entries[k]->shapes[i], "x");
      }
    }
    return out;
  }
  if (format == ProfileFormat::kPolygraphy) {
    static constexpr std::array<const char*, 3> kFlags = {"--trt-min-shapes", "--trt-opt-shapes",
                                                          "--trt-max-shapes"};
    std::string out;
    for (int i = 0; i < 3; ++i) {
      if (i) out += ' ';
      out += kFlags[i];
      for (const auto* in : Entries(profile)) {
        out += StrCat(" ", in->input, ":[", Join(in->shapes[i], ","), "]");
      }
    }
    return out;
  }
  return TrtexecFlags(profile);
}

namespace {

// "1x3x224" (sep 'x') or "1,3,224" (sep ','): the sizes; nullopt when one is not a
// non-negative integer. An empty text is a scalar's shape.
std::optional<std::vector<int64_t>> ParseSizes(std::string_view text, char sep) {
  std::vector<int64_t> out;
  if (text.empty()) return out;
  while (true) {
    const size_t at = text.find(sep);
    std::string_view part = Trim(text.substr(0, at));
    int64_t v = 0;
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size() || v < 0) {
      return std::nullopt;
    }
    out.push_back(v);
    if (at == std::string_view::npos) break;
    text = text.substr(at + 1);
  }
  return out;
}

// An input's name as a profile writes it: surrounding quotes removed.
std::string Unquote(std::string_view name) {
  name = Trim(name);
  if (name.size() >= 2 && (name.front() == '\'' || name.front() == '"') &&
      name.back() == name.front()) {
    name = name.substr(1, name.size() - 2);
  }
  return std::string(name);
}

// The whitespace-separated words of `text`, a quoted stretch kept in one word.
std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  char quote = 0;
  bool in_word = false;
  for (char c : text) {
    if (quote) {
      word += c;
      if (c == quote) quote = 0;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) out.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      if (c == '\'' || c == '"') quote = c;
      word += c;
      in_word = true;
    }
  }
  if (in_word) out.push_back(std::move(word));
  return out;
}

// "name:1x3x224,other:1x16" (trtexec and onnxruntime's option values): per input, the
// shape. The name is what comes before the last ':' of each item (a name may have ':').
bool ParseShapeList(std::string_view list, const std::string& key,
                    std::vector<std::pair<std::string, std::vector<int64_t>>>* out,
                    std::string* error) {
  if (list.empty()) {
    *error = StrCat(key, " gives no shapes");
    return false;
  }
  while (true) {
    const size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    const size_t colon = item.rfind(':');
    std::optional<std::vector<int64_t>> sizes;
    if (colon != std::string_view::npos && colon > 0) {
      sizes = ParseSizes(item.substr(colon + 1), 'x');
    }
    if (!sizes) {
      *error = StrCat(key, ": '", item, "' is not NAME:D0xD1x... with non-negative sizes");
      return false;
    }
    out->emplace_back(Unquote(item.substr(0, colon)), std::move(*sizes));
    if (comma == std::string_view::npos) break;
    list = list.substr(comma + 1);
  }
  return true;
}

}  // namespace

std::optional<GivenProfile> ParseProfileText(std::string_view text, std::string* error) {
  GivenProfile given;
  std::array<std::vector<std::pair<std::string, std::vector<int64_t>>>, 3> points;
  std::array<bool, 3> seen = {false, false, false};
  const std::vector<std::string> words = Words(text);
  if (words.empty()) {
    *error = "the profile is empty";
    return std::nullopt;
  }
  auto point_of = [](std::string_view key, const std::array<const char*, 3>& keys) {
    for (int i = 0; i < 3; ++i) {
      if (key == keys[i]) return i;
    }
    return -1;
  };
  static constexpr std::array<const char*, 3> kTrtexec = {"--minShapes", "--optShapes",
                                                          "--maxShapes"};
  static constexpr std::array<const char*, 3> kOrt = {
      "trt_profile_min_shapes", "trt_profile_opt_shapes", "trt_profile_max_shapes"};
  static constexpr std::array<const char*, 3> kPolygraphy = {"--trt-min-shapes", "--trt-opt-shapes",
                                                             "--trt-max-shapes"};
  std::optional<ProfileFormat> format;
  auto set_format = [&](ProfileFormat f, std::string_view word) {
    if (format && *format != f) {
      *error = StrCat("'", word, "' is ", ProfileFormatName(f), " syntax in a ",
                      ProfileFormatName(*format), " profile");
      return false;
    }
    format = f;
    return true;
  };
  int polygraphy_point = -1;  // the --trt-*-shapes whose items follow
  for (const auto& word : words) {
    const size_t eq = word.find('=');
    const std::string key = word.substr(0, eq);
    int i = -1;
    if ((i = point_of(key, kTrtexec)) >= 0 || (i = point_of(key, kOrt)) >= 0) {
      const bool trtexec = point_of(key, kTrtexec) >= 0;
      if (!set_format(trtexec ? ProfileFormat::kTrtexec : ProfileFormat::kOrtTrt, key)) {
        return std::nullopt;
      }
      if (eq == std::string::npos) {
        *error = StrCat("'", key, "' needs =NAME:D0xD1x...");
        return std::nullopt;
      }
      if (seen[i]) {
        *error = StrCat("'", key, "' is given twice");
        return std::nullopt;
      }
      seen[i] = true;
      if (!ParseShapeList(std::string_view(word).substr(eq + 1), key, &points[i], error)) {
        return std::nullopt;
      }
      polygraphy_point = -1;
    } else if ((i = point_of(word, kPolygraphy)) >= 0) {
      if (!set_format(ProfileFormat::kPolygraphy, word)) return std::nullopt;
      if (seen[i]) {
        *error = StrCat("'", word, "' is given twice");
        return std::nullopt;
      }
      seen[i] = true;
      polygraphy_point = i;
    } else if (polygraphy_point >= 0) {
      // NAME:[D0,D1,...]
      const size_t open = word.rfind(":[");
      std::optional<std::vector<int64_t>> sizes;
      if (open != std::string::npos && open > 0 && word.back() == ']') {
        sizes = ParseSizes(std::string_view(word).substr(open + 2, word.size() - open - 3), ',');
      }
      if (!sizes) {
        *error = StrCat(kPolygraphy[polygraphy_point], ": '", word,
                        "' is not NAME:[D0,D1,...] with non-negative sizes");
        return std::nullopt;
      }
      points[polygraphy_point].emplace_back(Unquote(std::string_view(word).substr(0, open)),
                                            std::move(*sizes));
    } else {
      *error = StrCat("'", word,
                      "' is not part of a profile: expected trtexec's --minShapes=, "
                      "--optShapes=, --maxShapes=, onnxruntime's trt_profile_min_shapes=, "
                      "trt_profile_opt_shapes=, trt_profile_max_shapes= or Polygraphy's "
                      "--trt-min-shapes, --trt-opt-shapes, --trt-max-shapes");
      return std::nullopt;
    }
  }
  given.format = *format;
  const std::array<const char*, 3>& keys = *format == ProfileFormat::kTrtexec  ? kTrtexec
                                           : *format == ProfileFormat::kOrtTrt ? kOrt
                                                                               : kPolygraphy;
  for (int i = 0; i < 3; ++i) {
    if (!seen[i] || points[i].empty()) {
      *error = StrCat("the profile has no ", keys[i]);
      return std::nullopt;
    }
  }
  // Per input, in the order of min's list; each in all three, with one rank.
  for (const auto& [name, shape] : points[0]) {
    Profile::InputShapes in;
    in.input = name;
    for (const auto& other : given.inputs) {
      if (other.input == name) {
        *error = StrCat(keys[0], " gives input '", name, "' twice");
        return std::nullopt;
      }
    }
    for (int i = 0; i < 3; ++i) {
      int found = 0;
      for (const auto& [n, s] : points[i]) {
        if (n != name) continue;
        ++found;
        in.shapes[i] = s;
      }
      if (found != 1) {
        *error = StrCat(keys[i], found ? " gives input '" : " has no shape for input '", name,
                        found ? "' twice" : "'");
        return std::nullopt;
      }
      if (in.shapes[i].size() != in.shapes[0].size()) {
        *error = StrCat("input '", name, "' has rank ", in.shapes[0].size(), " in ", keys[0],
                        " and ", in.shapes[i].size(), " in ", keys[i]);
        return std::nullopt;
      }
    }
    given.inputs.push_back(std::move(in));
  }
  for (int i = 1; i < 3; ++i) {
    for (const auto& [n, s] : points[i]) {
      const bool known = std::any_of(given.inputs.begin(), given.inputs.end(),
                                     [&, name = n](const auto& in) { return in.input == name; });
      if (!known) {
        *error = StrCat(keys[i], " gives input '", n, "', which ", keys[0], " does not");
        return std::nullopt;
      }
    }
  }
  return given;
}

Profile ProfileFromShapes(const Contract& contract, const InferenceResult& result,
                          const GivenProfile& given, std::vector<ProfileViolation>* violations) {
  std::optional<symbolic::SymbolContext::Scope> scope;
  if (result.symbol_context) scope.emplace(*result.symbol_context);
  Profile p;
  std::unordered_map<std::string, const Profile::InputShapes*> by_name;
  for (const auto& in : given.inputs) by_name[in.input] = &in;
  for (const auto& in : given.inputs) {
    const bool known = std::any_of(contract.inputs.begin(), contract.inputs.end(),
                                   [&](const ContractInput& c) { return c.name == in.input; });
    if (!known) p.errors.push_back(StrCat("the profile gives '", in.input, "', not an input"));
  }
  // Min <= opt <= max, per dim.
  for (const auto& in : given.inputs) {
    for (size_t axis = 0; axis < in.shapes[0].size(); ++axis) {
      const int64_t a = in.shapes[0][axis], b = in.shapes[1][axis], c = in.shapes[2][axis];
      if (a <= b && b <= c) continue;
      violations->push_back(
          {a > b ? "opt" : "max", StrCat("min <= opt <= max (", a, ", ", b, ", ", c, ")"),
           StrCat("at input '", in.input, "' dim ", axis), "TensorRT's optimization profiles"});
    }
  }
  // Who set each symbol first, for the message when another input disagrees.
  std::map<std::string, std::string> set_by;
  std::vector<std::pair<const ContractInput*, const Profile::InputShapes*>> matched;
  for (const auto& in : contract.inputs) {
    if (!in.shape) continue;
    auto it = by_name.find(in.name);
    if (in.shape_tensor) {
      // A shape-tensor input's entry is its values (CheckShapeInputValues checks them).
      if (it == by_name.end()) {
        p.errors.push_back(StrCat("the profile has no values for shape input '", in.name,
                                  "' (TensorRT needs them: ", in.value_elements.size(),
                                  in.value_elements.size() == 1 ? " value" : " values", ")"));
      } else if (it->second->shapes[0].size() != in.value_elements.size()) {
        p.errors.push_back(StrCat("shape input '", in.name, "' has ", in.value_elements.size(),
                                  in.value_elements.size() == 1 ? " value" : " values",
                                  ", the profile gives ", it->second->shapes[0].size()));
      } else {
        p.shape_values.push_back(*it->second);  // min <= opt <= max is checked above
      }
      continue;
    }
    bool symbolic_shape = std::any_of(in.dims.begin(), in.dims.end(),
                                      [](Dim d) { return d.is_unknown() || !d.is_const(); });
    if (it == by_name.end()) {
      if (symbolic_shape && !in.has_initializer) {
        p.errors.push_back(StrCat("the profile has no shape for input '", in.name, "' [",
                                  StrJoin(*in.shape, ", "), "]"));
      }
      continue;
    }
    if (it->second->shapes[0].size() != in.dims.size()) {
      p.errors.push_back(StrCat("input '", in.name, "' has rank ", in.dims.size(),
                                " in the model and ", it->second->shapes[0].size(),
                                " in the profile"));
      continue;
    }
    matched.emplace_back(&in, it->second);
    for (size_t axis = 0; axis < in.dims.size(); ++axis) {
      const Dim d = in.dims[axis];
      if (!d.is_symbol()) continue;
      const std::string name(d.symbol_name());
      const std::string where = StrCat("input '", in.name, "' dim ", axis);
      if (!p.values[0].count(name)) {
        for (int i = 0; i < 3; ++i) p.values[i][name] = it->second->shapes[i][axis];
        set_by[name] = where;
        continue;
      }
      for (int i = 0; i < 3; ++i) {
        const int64_t first = p.values[i].at(name), here = it->second->shapes[i][axis];
        if (first == here) continue;
        violations->push_back({kProfilePoints[i],
                               StrCat(set_by[name], " == ", where, " (", first, " != ", here, ")"),
                               StrCat("at ", name, " = ", first, " and ", here),
                               StrCat("both are '", name, "' in the model's declared inputs")});
      }
    }
  }
  DeriveSymbols(result, &p);
  // A dim that is an expression of one symbol still without a value (2*H) gives it. When
  // some point has no solution (9 for 2*H), the symbol stays without a value, and only the
  // points without one are violations.
  std::map<std::pair<std::string, size_t>, std::array<bool, 3>> unsolvable;
  for (bool progress = true; progress;) {
    progress = false;
    for (const auto& [in, shapes] : matched) {
      for (size_t axis = 0; axis < in->dims.size(); ++axis) {
        const Dim d = in->dims[axis];
        if (d.is_unknown() || d.is_const() || d.is_symbol()) continue;
        std::set<std::string> missing;
        for (const auto& s : d.Symbols()) {
          if (!p.values[0].count(s)) missing.insert(s);
        }
        if (missing.size() != 1) continue;
        const std::string symbol = *missing.begin();
        std::array<int64_t, 3> solved{};
        std::array<bool, 3> fails{};
        bool ok = true;
        for (int i = 0; i < 3; ++i) {
          auto v = SolveFor(d, Dim::Const(shapes->shapes[i][axis]), symbol, p.values[i]);
          if (v) solved[i] = *v;
          fails[i] = !v.has_value();
          ok = ok && v.has_value();
        }
        if (!ok) {
          unsolvable[{in->name, axis}] = fails;
          continue;
        }
        for (int i = 0; i < 3; ++i) p.values[i][symbol] = solved[i];
        p.derived.push_back(
            StrCat(symbol, " from input '", in->name, "' dim ", axis, " == ", d.ToString()));
        DeriveSymbols(result, &p);
        progress = true;
      }
    }
  }
  // Every dim (constants, expressions) against the profile's sizes.
  for (const auto& [in, shapes] : matched) {
    for (size_t axis = 0; axis < in->dims.size(); ++axis) {
      const Dim d = in->dims[axis];
      if (d.is_unknown() || d.is_symbol()) continue;
      for (int i = 0; i < 3; ++i) {
        auto v = symbolic::Evaluate(d, p.values[i]);
        if (!v) {
          std::set<std::string> missing;
          for (const auto& s : d.Symbols()) {
            if (!p.values[i].count(s)) missing.insert(s);
          }
          auto u = unsolvable.find({in->name, axis});
          if (missing.size() == 1 && (u == unsolvable.end() || u->second[i])) {
            violations->push_back({kProfilePoints[i],
                                   StrCat("input '", in->name, "' dim ", axis, " == ", d.ToString(),
                                          " (", shapes->shapes[i][axis], " is not ", d.ToString(),
                                          " for any ", *missing.begin(), " >= 0)"),
                                   StrCat("at input '", in->name, "' dim ", axis),
                                   StrCat("the declared shape of input '", in->name, "'")});
          }
          continue;
        }
        if (*v == shapes->shapes[i][axis]) continue;
        violations->push_back({kProfilePoints[i],
                               StrCat("input '", in->name, "' dim ", axis, " == ", d.ToString(),
                                      " (", shapes->shapes[i][axis], " != ", *v, ")"),
                               StrCat("at input '", in->name, "' dim ", axis),
                               StrCat("the declared shape of input '", in->name, "'")});
      }
    }
    p.inputs.push_back(*shapes);
  }
  return p;
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

std::vector<ProfileViolation> CheckShapeInputValues(const Contract& contract,
                                                    const Profile& profile,
                                                    const InferenceResult& result) {
  std::optional<symbolic::SymbolContext::Scope> scope;
  if (result.symbol_context) scope.emplace(*result.symbol_context);
  std::vector<ProfileViolation> out;
  // Per point: the symbols' values and each element's symbol's (the element less 1).
  std::array<Values, 3> values = profile.values;
  std::map<std::string, Dim, std::less<>> names;   // element symbol -> its name less 1
  std::map<std::string, std::string> shown_names;  // element symbol -> its name
  std::vector<std::pair<const ContractValueElement*, std::array<int64_t, 3>>> given;
  for (const auto& in : contract.inputs) {
    auto sv = std::find_if(profile.shape_values.begin(), profile.shape_values.end(),
                           [&](const Profile::InputShapes& v) { return v.input == in.name; });
    if (!in.shape_tensor || sv == profile.shape_values.end() ||
        sv->shapes[0].size() != in.value_elements.size()) {
      continue;
    }
    for (size_t k = 0; k < in.value_elements.size(); ++k) {
      const ContractValueElement& e = in.value_elements[k];
      std::array<int64_t, 3> v = {sv->shapes[0][k], sv->shapes[1][k], sv->shapes[2][k]};
      given.emplace_back(&e, v);
      if (e.symbol.empty()) continue;
      names[e.symbol] = Dim::Symbol(e.name) - Dim::Const(1);
      shown_names[e.symbol] = e.name;
      for (int i = 0; i < 3; ++i) values[i][e.symbol] = v[i] - 1;
    }
  }
  for (int i = 0; i < 3; ++i) {
    // Elements a fact that evaluates at this point mentions: that fact checks them (and the
    // model's own facts, CheckProfile, the rest of the way to their values).
    std::set<std::string> reported;
    for (const auto& f : contract.value_facts) {
      std::set<std::string> mentioned;
      for (Dim side : {f.lhs, f.rhs}) {
        for (const auto& s : side.Symbols()) mentioned.insert(s);
      }
      // An element given 0 is not checked: the facts hold for elements of at least 1.
      bool zero = false;
      for (const auto& s : mentioned) {
        auto v = values[i].find(s);
        zero = zero || (shown_names.count(s) && v != values[i].end() && v->second < 0);
      }
      if (zero) continue;
      auto a = symbolic::Evaluate(f.lhs, values[i]);
      auto b = symbolic::Evaluate(f.rhs, values[i]);
      if (!a || !b) continue;
      for (const auto& s : mentioned) {
        if (auto n = shown_names.find(s); n != shown_names.end()) reported.insert(n->second);
      }
      if (*a == *b) continue;
      std::vector<std::string> at;
      for (const auto& s : mentioned) {
        auto n = shown_names.find(s);
        const int64_t v = values[i].at(s);
        at.push_back(n == shown_names.end() ? StrCat(s, " = ", v)
                                            : StrCat(n->second, " = ", v + 1));
      }
      out.push_back({kProfilePoints[i],
                     StrCat(DisplayDim(f.lhs, names), " == ", DisplayDim(f.rhs, names), " (", *a,
                            " != ", *b, ")"),
                     StrCat("at ", StrJoin(at, ", ")), f.origin});
    }
    for (const auto& [e, v] : given) {
      const int64_t x = v[i];
      if (x == 0) continue;
      if (!e->value_dim.is_unknown()) {
        auto want = symbolic::Evaluate(e->value_dim, profile.values[i]);
        if (want && *want != x && !reported.count(e->name)) {
          out.push_back({kProfilePoints[i],
                         StrCat(e->name, " == ", e->value, " (", x, " != ", *want, ")"),
                         StrCat("at ", e->name, " = ", x),
                         e->facts.empty() ? std::string("what the model forces it to")
                                          : StrJoin(e->facts, "; ")});
        }
        continue;  // its bounds are its value's
      }
      const std::string origin = JoinOrigins(e->bound_origins);
      if (x < e->min) {
        out.push_back({kProfilePoints[i], StrCat(e->name, " >= ", e->min),
                       StrCat("at ", e->name, " = ", x), origin});
      }
      if (e->max && x > *e->max) {
        out.push_back({kProfilePoints[i], StrCat(e->name, " <= ", *e->max),
                       StrCat("at ", e->name, " = ", x), origin});
      }
    }
  }
  return out;
}

}  // namespace onnx_infer
