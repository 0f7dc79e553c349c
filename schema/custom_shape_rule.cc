// A formula is read by symbolic's own parser (symbolic/parse.h). Before parsing, its input
// references and attributes are translated into names that parser reads as symbols:
// in0[2] -> _in0_2, in0[-1] -> _in0_m1, attr.heads -> _attr_heads (or, on a node, the
// attribute's value). The formula's own names are checked first (only inK[...], attr.NAME
// and the functions), so these are the only symbols a parsed formula holds, and replacing
// them all at once by the input dims (symbolic::Substitute) cannot be confused by a dim_param
// that happens to be spelt like one.
//
// Why attributes are values and not symbols on a node: symbolic simplifies with "every symbol
// is >= 0", true of dims but not of attributes (Max(attr.pad, 0) must not become attr.pad).
#include "onnx_infer/schema/custom_shape_rule.h"

#include <algorithm>
#include <cctype>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/symbolic/parse.h"

namespace onnx_infer {

std::string RankRange::ToString() const {
  if (max && *max == min) return StrCat("rank ", min);
  if (!max) return StrCat("rank >= ", min);
  if (min == 0) return StrCat("rank <= ", *max);
  return StrCat("rank ", min, " to ", *max);
}

Status CheckInputRanks(const InferenceContext& ctx, const InputRanks& ranks) {
  for (const auto& [input, range] : ranks) {
    const Shape* s = ctx.InputShape(input);
    if (!s) continue;
    const int64_t rank = static_cast<int64_t>(s->size());
    if (!range.Contains(rank)) {
      return InputError(ctx, input, DiagCode::kCustomRule,
                        StrCat("the rule expects ", range.ToString(), ", got rank ", rank));
    }
  }
  return OkStatus();
}

namespace {

// Input numbers and axis positions a formula may write.
constexpr int64_t kMaxIndex = 1000;

// A position among an input's axes: `offset` from the front, or from the back (Python's
// -offset).
struct AxisPos {
  bool from_end = false;
  int64_t offset = 0;
  int64_t At(int64_t rank) const { return from_end ? rank - offset : offset; }
};

// in0[2], in0[-1] (one dim) or in0[1:], in0[:-2], in0[1:3] (a slice, Python's semantics).
struct InputRef {
  int input = 0;
  bool slice = false;
  AxisPos index;        // one dim
  AxisPos start, stop;  // a slice: [start, stop)
  std::string text;     // as written

  // The least rank at which the dim, or both bounds of the slice, exist (start <= stop).
  int64_t MinRank() const {
    if (!slice) return index.from_end ? index.offset : index.offset + 1;
    if (start.from_end) return start.offset;  // both from the back (the other order is refused)
    if (!stop.from_end) return stop.offset;   // both from the front
    return start.offset + stop.offset;
  }
  // Whether the slice's length grows with the rank: it starts from the front and stops from
  // the back, so the rule states how the output rank follows the input's.
  bool Spans() const { return slice && !start.from_end && stop.from_end; }
  // The symbol that stands for the dim in a parsed formula.
  std::string Placeholder() const {
    return StrCat("_in", input, index.from_end ? "_m" : "_", index.offset);
  }
};

using AttrValues = std::map<std::string, int64_t, std::less<>>;

// A formula in symbolic's syntax, with what it refers to.
struct Translation {
  std::string text;
  // column[i]: the byte of the formula that text[i] comes from; one more for the end.
  std::vector<size_t> column;
  // Translated references: text[begin, end) stands for `written`.
  struct Token {
    size_t begin, end;
    std::string written;
  };
  std::vector<Token> tokens;
  std::vector<InputRef> refs;      // the single dims used, each once
  std::vector<std::string> attrs;  // the attributes used, each once
  std::optional<InputRef> slice;   // the whole formula is this slice
};

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool IsBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

// Translates a formula into symbolic's syntax. `/` becomes `//` (floor division) except where
// the nearest enclosing call is floor or ceiling: there it stays exact and the call rounds.
// With `values`, attributes become their values; without, placeholder symbols.
class Translator {
 public:
  Translator(std::string_view formula, const AttrValues* values)
      : formula_(formula), values_(values) {}

  StatusOr<Translation> Run() {
    while (pos_ < formula_.size()) {
      const size_t at = pos_;
      const char c = formula_[pos_];
      if (std::isspace(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c))) {
        Emit(std::string(1, c), at);
        ++pos_;
      } else if (IsWordChar(c)) {
        OI_RETURN_IF_ERROR(Name());
      } else if (c == '(') {
        context_.push_back(pending_.value_or(Exact()));
        pending_.reset();
        Emit("(", at);
        ++pos_;
      } else if (c == ')') {
        if (!context_.empty()) context_.pop_back();
        Emit(")", at);
        ++pos_;
      } else if (c == '/') {
        const bool floor_div = formula_.substr(pos_, 2) == "//";
        Emit(floor_div || !Exact() ? "//" : "/", at);
        pos_ += floor_div ? 2 : 1;
      } else if (c == '[' || c == ']' || c == ':' || c == '.') {
        return Error(at, StrCat("unexpected '", c, "'"));
      } else {
        Emit(std::string(1, c), at);  // operators and commas; the parser judges the rest
        ++pos_;
      }
    }
    out_.column.push_back(formula_.size());
    return std::move(out_);
  }

 private:
  Status Error(size_t at, std::string_view what) const {
    return Status::Error(StrCat("'", formula_, "' at column ", at + 1, ": ", what));
  }
  bool Exact() const { return !context_.empty() && context_.back(); }
  void Emit(std::string_view s, size_t column) {
    out_.text += s;
    out_.column.insert(out_.column.end(), s.size(), column);
  }
  // A translated reference, spaced so that it cannot run into a neighbouring name.
  void EmitToken(std::string_view s, size_t begin) {
    const size_t start = out_.text.size();
    Emit(StrCat(" ", s, " "), begin);
    out_.tokens.push_back(
        {start, out_.text.size(), std::string(formula_.substr(begin, pos_ - begin))});
  }
  void SkipSpaces() {
    while (pos_ < formula_.size() && std::isspace(static_cast<unsigned char>(formula_[pos_]))) {
      ++pos_;
    }
  }
  bool Eat(char c) {
    SkipSpaces();
    if (pos_ < formula_.size() && formula_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  // inK[...], attr.NAME or a function name.
  Status Name() {
    const size_t begin = pos_;
    while (pos_ < formula_.size() && IsWordChar(formula_[pos_])) ++pos_;
    const std::string_view name = formula_.substr(begin, pos_ - begin);
    const std::string_view digits = name.size() > 2 ? name.substr(2) : "";
    if (name.substr(0, 2) == "in" && !digits.empty() &&
        std::all_of(digits.begin(), digits.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      if (digits.size() > 4) return Error(begin, "input number too large");
      return Reference(begin, std::stoi(std::string(digits)));
    }
    if (name == "attr") {
      if (pos_ >= formula_.size() || formula_[pos_] != '.') {
        return Error(pos_, "expected '.' and an attribute name after 'attr'");
      }
      const size_t attr_begin = ++pos_;
      while (pos_ < formula_.size() && IsWordChar(formula_[pos_])) ++pos_;
      if (pos_ == attr_begin) return Error(pos_, "expected an attribute name after 'attr.'");
      std::string attr(formula_.substr(attr_begin, pos_ - attr_begin));
      if (values_) {
        EmitToken(StrCat("(", values_->at(attr), ")"), begin);
      } else {
        EmitToken(StrCat("_attr_", attr), begin);
      }
      if (std::find(out_.attrs.begin(), out_.attrs.end(), attr) == out_.attrs.end()) {
        out_.attrs.push_back(std::move(attr));
      }
      return OkStatus();
    }
    static constexpr std::string_view kRounding[] = {"floor", "ceiling", "ceil"};
    static constexpr std::string_view kOthers[] = {"Mod", "Min", "Max", "min", "max"};
    const bool rounding =
        std::find(std::begin(kRounding), std::end(kRounding), name) != std::end(kRounding);
    if (rounding || std::find(std::begin(kOthers), std::end(kOthers), name) != std::end(kOthers)) {
      Emit(name, begin);
      const size_t after = pos_;
      if (!Eat('(')) return Error(pos_, StrCat("expected '(' after '", name, "'"));
      pos_ = after;  // the '(' is translated by Run, which opens the call's context
      pending_ = rounding;
      return OkStatus();
    }
    return Error(begin, StrCat("unknown name '", name,
                               "': expected inK[i], inK[a:b], attr.NAME or one of the functions "
                               "floor, ceiling, Mod, Min, Max"));
  }

  // [-]digits: a position from the front, or from the back; nullopt when there is none.
  StatusOr<std::optional<AxisPos>> Bound() {
    SkipSpaces();
    const size_t begin = pos_;
    const bool negative = pos_ < formula_.size() && formula_[pos_] == '-';
    if (negative) ++pos_;
    const size_t digits = pos_;
    int64_t v = 0;
    while (pos_ < formula_.size() && std::isdigit(static_cast<unsigned char>(formula_[pos_]))) {
      v = v * 10 + (formula_[pos_] - '0');
      if (v > kMaxIndex) return Error(begin, "index too large");
      ++pos_;
    }
    if (pos_ == digits) {
      if (negative) return Error(pos_, "expected a number after '-'");
      return std::optional<AxisPos>();
    }
    if (negative && v == 0) return Error(begin, "-0 is 0 (the front); write 0");
    return std::optional<AxisPos>(AxisPos{negative, v});
  }

  // After "inK": "[i]" or "[a:b]".
  Status Reference(size_t begin, int input) {
    if (!Eat('[')) return Error(pos_, StrCat("expected '[' after 'in", input, "'"));
    OI_ASSIGN_OR_RETURN(std::optional<AxisPos> first, Bound());
    InputRef ref;
    ref.input = input;
    if (Eat(':')) {
      OI_ASSIGN_OR_RETURN(std::optional<AxisPos> second, Bound());
      ref.slice = true;
      ref.start = first.value_or(AxisPos{false, 0});
      ref.stop = second.value_or(AxisPos{true, 0});
    } else if (first) {
      ref.index = *first;
    } else {
      return Error(pos_, "expected an index or a slice");
    }
    if (!Eat(']')) return Error(pos_, "expected ']'");
    ref.text = std::string(formula_.substr(begin, pos_ - begin));
    if (!ref.slice) {
      EmitToken(ref.Placeholder(), begin);
      const auto same = [&](const InputRef& r) { return r.Placeholder() == ref.Placeholder(); };
      if (std::none_of(out_.refs.begin(), out_.refs.end(), same)) out_.refs.push_back(ref);
      return OkStatus();
    }
    if (ref.start.from_end && !ref.stop.from_end) {
      return Error(begin, StrCat(ref.text,
                                 " starts from the back and stops from the front, so it "
                                 "would shrink as the rank grows; write both from one end, or "
                                 "start from the front"));
    }
    if (ref.start.from_end == ref.stop.from_end &&
        ref.start.At(kMaxIndex) > ref.stop.At(kMaxIndex)) {
      return Error(begin, StrCat(ref.text, " starts after it stops"));
    }
    if (!IsBlank(formula_.substr(0, begin)) || !IsBlank(formula_.substr(pos_))) {
      return Error(begin, StrCat("a slice (", ref.text,
                                 ") is spliced into the shape as a dims entry of its own; it "
                                 "cannot be part of a formula"));
    }
    out_.slice = std::move(ref);
    return OkStatus();
  }

  std::string_view formula_;
  const AttrValues* values_;
  size_t pos_ = 0;
  Translation out_;
  // Per open parenthesis: whether `/` is exact in it (the nearest call is floor or ceiling).
  std::vector<bool> context_;
  // The call whose '(' comes next: true for floor or ceiling.
  std::optional<bool> pending_;
};

// Parses a translation, with errors that point into the formula as written.
StatusOr<Dim> Parse(const Translation& t, std::string_view formula) {
  symbolic::ParseError e;
  if (auto d = symbolic::ParseDim(t.text, &e)) return *d;
  const size_t at = std::min(e.offset, t.column.size() - 1);
  std::string what = e.message;
  for (const auto& token : t.tokens) {
    if (at >= token.begin && at < token.end && what.rfind("unexpected", 0) == 0) {
      what = StrCat("unexpected '", token.written, "'");
    }
  }
  return Status::Error(StrCat("'", formula, "' at column ", t.column[at] + 1, ": ", what));
}

}  // namespace

struct ShapeFormula::Entry {
  enum class Kind { kConst, kFormula, kSlice } kind = Kind::kConst;
  int64_t value = 0;               // kConst
  std::string text;                // kFormula, kSlice: as written
  InputRef slice;                  // kSlice
  std::vector<InputRef> refs;      // kFormula: the single dims it uses
  std::vector<std::string> attrs;  // kFormula: the int attributes it uses
  // kFormula without attributes: the translated text, checked at load and parsed again at
  // each evaluation, in the run's symbol context (a Dim parsed at load would belong to the
  // context current then, and two contexts' dims must not be combined).
  std::string translated;
};

StatusOr<ShapeFormula> ShapeFormula::Build(const std::vector<DimsItem>& dims,
                                           const InputRanks& stated, const OpSchema& schema,
                                           const ErrorAt& error) {
  // Per input: the reference needing the largest rank, the first one, and whether a slice
  // of it runs to its end.
  struct Use {
    int64_t need = 0;
    std::string need_key, need_text, first_key, first_text;
    bool spans = false;
  };
  std::map<int, Use> uses;
  ShapeFormula f;
  for (size_t i = 0; i < dims.size(); ++i) {
    const std::string key = StrCat("dims[", i, "]");
    auto e = std::make_shared<Entry>();
    std::vector<InputRef> refs;
    if (const int64_t* v = std::get_if<int64_t>(&dims[i])) {
      if (*v < 0) return error(key, StrCat("a dim cannot be negative, got ", *v));
      e->value = *v;
    } else {
      e->text = std::get<std::string>(dims[i]);
      auto t = Translator(e->text, nullptr).Run();
      if (!t.ok()) return error(key, t.status().message());
      if (t->slice) {
        e->kind = Entry::Kind::kSlice;
        e->slice = *t->slice;
        refs.push_back(*t->slice);
      } else {
        e->kind = Entry::Kind::kFormula;
        for (const std::string& attr : t->attrs) {
          const AttributeSpec* spec = schema.FindAttribute(attr);
          if (!spec || spec->type != onnx::AttributeProto::INT) {
            return error(key,
                         StrCat("attr.", attr, ": the operator has no int attribute '", attr, "'"));
          }
        }
        auto parsed = Parse(*t, e->text);
        if (!parsed.ok()) return error(key, parsed.status().message());
        if (t->attrs.empty()) e->translated = t->text;
        e->refs = t->refs;
        e->attrs = t->attrs;
        refs = t->refs;
      }
    }
    for (const InputRef& r : refs) {
      if (r.input >= schema.max_inputs()) {
        return error(key, StrCat(r.text, ": there is no input ", r.input, " (the operator has ",
                                 schema.max_inputs(), ")"));
      }
      auto [it, first] = uses.try_emplace(r.input);
      Use& use = it->second;
      if (first) {
        use.first_key = key;
        use.first_text = r.text;
      }
      if (r.MinRank() > use.need || use.need_key.empty()) {
        use.need = std::max(use.need, r.MinRank());
        use.need_key = key;
        use.need_text = r.text;
      }
      use.spans |= r.Spans();
    }
    f.entries_.push_back(std::move(e));
  }

  // The rank policy (docs/custom-ops.md, "Ranks"): every input the rule indexes has its ranks
  // stated, with each index existing at every stated rank, or a slice of it runs to its end
  // and its least rank is inferred. Anything else could give a shape for a rank the rule was
  // not written for.
  f.ranks_ = stated;
  for (const auto& [input, use] : uses) {
    auto it = stated.find(input);
    if (it != stated.end()) {
      if (it->second.min < use.need) {
        return error(use.need_key,
                     StrCat(use.need_text, " needs rank >= ", use.need,
                            ", but \"ranks\" allows input ", input, " rank ", it->second.min));
      }
    } else if (use.spans) {
      f.ranks_[input] = RankRange{use.need, std::nullopt};
    } else {
      return error(use.first_key,
                   StrCat(use.first_text, ": the rule does not state the rank of input ", input,
                          " and no slice of it runs to its end (like in", input, "[1:] or in",
                          input, "[:-2]); add \"ranks\": {\"", input,
                          "\": R} for the rank R it is written for, or {\"", input,
                          "\": {\"min\": R1, \"max\": R2}}"));
    }
  }
  return f;
}

StatusOr<std::optional<Shape>> ShapeFormula::Evaluate(const InferenceContext& ctx,
                                                      int output) const {
  Shape out;
  for (const auto& entry : entries_) {
    const Entry& e = *entry;
    const auto what = [&] {
      return StrCat("output ", output, " dim ", out.size(), " '", e.text, "'");
    };
    switch (e.kind) {
      case Entry::Kind::kConst:
        out.push_back(Dim::Const(e.value));
        break;
      case Entry::Kind::kSlice: {
        const Shape* s = ctx.InputShape(e.slice.input);
        if (!s) return std::optional<Shape>();  // the output's rank is unknown too
        const int64_t rank = static_cast<int64_t>(s->size());
        const int64_t begin = e.slice.start.At(rank), end = e.slice.stop.At(rank);
        if (begin < 0 || begin > end || end > rank) {  // excluded by ranks(); never a guess
          return RuleError(
              DiagCode::kCustomRule,
              StrCat(what(), ": ", InputLabel(ctx, e.slice.input), " has rank ", rank));
        }
        out.insert(out.end(), s->begin() + begin, s->begin() + end);
        break;
      }
      case Entry::Kind::kFormula: {
        Dim d;
        if (e.attrs.empty()) {
          symbolic::ParseError pe;
          auto parsed = symbolic::ParseDim(e.translated, &pe);
          if (!parsed)
            return RuleError(DiagCode::kCustomRule,
                             StrCat(what(), ": ", pe.message));  // parsed at load
          d = *parsed;
        } else {
          AttrValues values;
          for (const std::string& attr : e.attrs) {
            OI_ASSIGN_OR_RETURN(values[attr], ctx.IntAttr(attr));
          }
          OI_ASSIGN_OR_RETURN(Translation t, Translator(e.text, &values).Run());
          symbolic::ParseError pe;
          auto parsed = symbolic::ParseDim(t.text, &pe);
          if (!parsed) {
            std::vector<std::string> given;
            for (const auto& [name, v] : values) given.push_back(StrCat(name, " = ", v));
            return RuleError(DiagCode::kCustomRule,
                             StrCat(what(), " with ", StrJoin(given, ", "), ": ", pe.message));
          }
          d = *parsed;
        }
        std::map<std::string, Dim, std::less<>> dims;
        for (const InputRef& r : e.refs) {
          Dim v;  // unknown when the input's rank is
          if (const Shape* s = ctx.InputShape(r.input)) {
            const int64_t rank = static_cast<int64_t>(s->size());
            const int64_t axis = r.index.At(rank);
            if (axis < 0 || axis >= rank) {  // excluded by ranks(); never a guess
              return RuleError(DiagCode::kCustomRule,
                               StrCat(what(), ": ", InputLabel(ctx, r.input), " has rank ", rank));
            }
            v = (*s)[axis];
          }
          dims[r.Placeholder()] = v;
        }
        d = symbolic::Substitute(d, dims);
        if (symbolic::LessEqual(d, Dim::Const(-1)) == symbolic::Tri::kTrue) {
          return RuleError(DiagCode::kCustomRule,
                           StrCat(what(), ": evaluates to ", d.ToString(), ", a negative size"));
        }
        out.push_back(d);
        break;
      }
    }
  }
  return std::optional<Shape>(std::move(out));
}

}  // namespace onnx_infer
