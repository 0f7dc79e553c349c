// Min and Max. Comparable operands (LessEqual decides) give one of them; a nest of Min/Max
// over one variable gets its short form (below); otherwise an opaque atom with its operands
// in Compare order, so Max(A, B) and Max(B, A) are the same node.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <unordered_map>

#include "onnx_infer/symbolic/simplify_util.h"

namespace onnx_infer::symbolic {
namespace {

// ---- Short forms of piecewise-linear nests ---------------------------------------------
//
// Slice and pad arithmetic clamps each bound on its own, so lengths come out as nests such as
// Max(0, -Min(1, S) + Max(0, S - 1)): one variable u (here S) under constants, +, constant
// multiples, Min and Max. Such an f(u) is piecewise linear, and its pieces can only cross
// where |u| <= T, with T computed from the constants (below). So f is linear beyond T, and
// two such functions that agree on every integer from u's lower bound to past both their T
// agree everywhere. The short form is found by evaluating f there and trying the few shapes
// a clamped length takes: L(u), Max(m, L(u)), Min(m, L(u)) (L linear); each candidate is
// checked on every one of those integers before it is used, so the rewrite is exact for
// every u >= its lower bound (a superset of the values u takes). The example is
// Max(0, S - 2) for every S >= 0.

// Evaluations past this many integers are not tried (the constants are then too large for
// a slice of a shape anyway).
constexpr int64_t kMaxSpan = 512;

bool IsMinMax(const DimNode* n) { return n->kind == Kind::kMin || n->kind == Kind::kMax; }

// True when n is a Min/Max or a sum with a Min/Max term: what makes a nest worth shortening.
bool HasMinMax(const DimNode* n) {
  if (IsMinMax(n)) return true;
  if (n->kind != Kind::kSum) return false;
  for (const auto& [term, coeff] : n->terms) {
    if (IsMinMax(term)) return true;
  }
  return false;
}

// |v|, saturating at INT64_MAX.
int64_t Abs(int64_t v) { return v == INT64_MIN ? INT64_MAX : v < 0 ? -v : v; }

// One node of the nest, as a linear function of u plus Min/Max children.
struct Piece {
  int64_t constant = 0;
  int64_t slope = 0;                                         // coefficient of u
  std::vector<std::pair<const DimNode*, int64_t>> children;  // Min/Max terms and coefficients
  // Bounds over the linear pieces of the node's function: |slope| <= max_slope and
  // |intercept| <= max_intercept.
  int64_t max_slope = 0, max_intercept = 0;
};

class Nest {
 public:
  // Builds the nest of `top` = kind(a, b); false when it is not one variable's nest.
  bool Analyze(Kind kind, const DimNode* a, const DimNode* b) {
    kind_ = kind;
    a_ = a;
    b_ = b;
    const Piece* pa = Visit(a);
    const Piece* pb = Visit(b);
    if (!pa || !pb || !u_) return false;
    return Cross(*pa, *pb);
  }

  const DimNode* variable() const { return u_; }
  int64_t breakpoint_bound() const { return t_; }

  // f(x): the nest at u = x; nullopt on overflow.
  std::optional<int64_t> Eval(int64_t x) const {
    auto va = EvalNode(a_, x), vb = EvalNode(b_, x);
    if (!va || !vb) return std::nullopt;
    return kind_ == Kind::kMin ? std::min(*va, *vb) : std::max(*va, *vb);
  }

 private:
  // The non-Min/Max part q of a node as a multiple of u: sets u from the first one seen (its
  // coefficients divided by their gcd, the first made positive).
  std::optional<int64_t> MultipleOfU(Poly q) {
    if (q.terms.empty()) return 0;
    int64_t g = 0;
    for (const auto& [term, coeff] : q.terms) {
      if (coeff == INT64_MIN) return std::nullopt;
      g = std::gcd(g, coeff);
    }
    if (q.terms.front().second < 0) g = -g;
    if (!u_) {
      Poly u;
      for (const auto& [term, coeff] : q.terms) u.terms.emplace_back(term, coeff / g);
      u_ = FromPoly(std::move(u));
      if (!u_) return std::nullopt;
      u_poly_ = AsPoly(u_);
      return g;
    }
    if (q.terms.size() != u_poly_.terms.size()) return std::nullopt;
    // q = k·u: the same terms, one ratio.
    const int64_t first_u = u_poly_.terms.front().second;
    if (q.terms.front().first != u_poly_.terms.front().first ||
        q.terms.front().second % first_u != 0) {
      return std::nullopt;
    }
    const int64_t k = q.terms.front().second / first_u;
    for (size_t i = 0; i < q.terms.size(); ++i) {
      int64_t expected;
      if (q.terms[i].first != u_poly_.terms[i].first ||
          __builtin_mul_overflow(u_poly_.terms[i].second, k, &expected) ||
          expected != q.terms[i].second) {
        return std::nullopt;
      }
    }
    return k;
  }

  // Records the crossings of the pieces of two operands of a Min/Max.
  bool Cross(const Piece& x, const Piece& y) {
    int64_t t;
    if (__builtin_add_overflow(x.max_intercept, y.max_intercept, &t)) return false;
    t_ = std::max(t_, t);
    return t_ <= kMaxSpan;
  }

  const Piece* Visit(const DimNode* n) {
    auto it = pieces_.find(n);
    if (it != pieces_.end()) return &it->second;
    Piece p;
    Poly q;
    if (n->kind == Kind::kConst) {
      p.constant = n->value;
    } else if (IsMinMax(n)) {
      p.children.emplace_back(n, 1);
    } else if (n->kind == Kind::kSum) {
      p.constant = n->value;
      for (const auto& [term, coeff] : n->terms) {
        if (IsMinMax(term)) {
          p.children.emplace_back(term, coeff);
        } else {
          q.terms.emplace_back(term, coeff);
        }
      }
    } else {
      q.terms.emplace_back(n, 1);
    }
    auto k = MultipleOfU(std::move(q));
    if (!k || p.constant == INT64_MIN) return nullptr;
    p.slope = *k;
    p.max_slope = Abs(p.slope);
    p.max_intercept = Abs(p.constant);
    for (const auto& [child, coeff] : p.children) {
      if (coeff == INT64_MIN) return nullptr;
      int64_t slope, intercept;
      if (child == n) {  // n itself is a Min/Max: its operands
        const Piece* l = Visit(n->lhs);
        const Piece* r = Visit(n->rhs);
        if (!l || !r || !Cross(*l, *r)) return nullptr;
        slope = std::max(l->max_slope, r->max_slope);
        intercept = std::max(l->max_intercept, r->max_intercept);
      } else {
        const Piece* c = Visit(child);
        if (!c) return nullptr;
        slope = c->max_slope;
        intercept = c->max_intercept;
      }
      if (__builtin_mul_overflow(slope, Abs(coeff), &slope) ||
          __builtin_mul_overflow(intercept, Abs(coeff), &intercept) ||
          __builtin_add_overflow(p.max_slope, slope, &p.max_slope) ||
          __builtin_add_overflow(p.max_intercept, intercept, &p.max_intercept)) {
        return nullptr;
      }
    }
    return &pieces_.emplace(n, std::move(p)).first->second;
  }

  std::optional<int64_t> EvalNode(const DimNode* n, int64_t x) const {
    const Piece& p = pieces_.at(n);
    int64_t v;
    if (__builtin_mul_overflow(p.slope, x, &v) || __builtin_add_overflow(v, p.constant, &v)) {
      return std::nullopt;
    }
    for (const auto& [child, coeff] : p.children) {
      std::optional<int64_t> c;
      if (child == n) {
        auto l = EvalNode(n->lhs, x), r = EvalNode(n->rhs, x);
        if (!l || !r) return std::nullopt;
        c = n->kind == Kind::kMin ? std::min(*l, *r) : std::max(*l, *r);
      } else {
        c = EvalNode(child, x);
      }
      int64_t t;
      if (!c || __builtin_mul_overflow(*c, coeff, &t) || __builtin_add_overflow(v, t, &v)) {
        return std::nullopt;
      }
    }
    return v;
  }

  Kind kind_ = Kind::kMax;
  const DimNode* a_ = nullptr;
  const DimNode* b_ = nullptr;
  const DimNode* u_ = nullptr;
  Poly u_poly_;
  int64_t t_ = 0;
  std::unordered_map<const DimNode*, Piece> pieces_;
};

// A candidate short form: the line slope·u + intercept, clamped below by `lower` (Max) and
// above by `upper` (Min) when they are there: Min(upper, Max(lower, line)).
struct Candidate {
  int64_t slope = 0, intercept = 0;
  std::optional<int64_t> lower, upper;

  std::optional<int64_t> At(int64_t x) const {
    int64_t v;
    if (__builtin_mul_overflow(slope, x, &v) || __builtin_add_overflow(v, intercept, &v)) {
      return std::nullopt;
    }
    if (lower) v = std::max(v, *lower);
    if (upper) v = std::min(v, *upper);
    return v;
  }
  // Where a clamp meets the line: beyond it the candidate is linear.
  int64_t BreakpointBound() const {
    int64_t t = 0;
    for (const auto& clamp : {lower, upper}) {
      if (clamp) t = std::max(t, std::min(Abs(*clamp), kMaxSpan + 1) + Abs(intercept));
    }
    return t;
  }
  const DimNode* Build(const DimNode* u, const Assumptions* as) const {
    const DimNode* form = Add(MulConst(u, slope), Const(intercept));
    if (lower) form = Max(Const(*lower), form, as);
    if (upper) form = Min(Const(*upper), form, as);
    return form;
  }
};

// The short form of kind(a, b) when it is a one-variable nest, else nullopt. The result may
// itself be simplified further by the builders (Max(0, S - 2) is S - 2 under S >= 2).
std::optional<const DimNode*> ShortForm(Kind kind, const DimNode* a, const DimNode* b,
                                        const Assumptions* as) {
  // A candidate is built through Min/Max again (Min(2, Max(0, S - 1))): those calls must not
  // search again.
  static thread_local bool searching = false;
  if (searching) return std::nullopt;
  searching = true;
  struct Reset {
    ~Reset() { searching = false; }
  } reset;
  Nest nest;
  if (!nest.Analyze(kind, a, b)) return std::nullopt;
  const DimNode* u = nest.variable();
  const Interval range = Bounds(u, as);
  if (!range.has_lo || Abs(range.lo) > kMaxSpan) return std::nullopt;
  const int64_t lo = range.lo;
  // f on [lo, end], end past every breakpoint of f (and of the candidates, checked below).
  int64_t end = std::max(lo, nest.breakpoint_bound()) + 2;
  if (range.has_hi) end = std::min(end, range.hi);
  if (end < lo || end - lo > 2 * kMaxSpan) return std::nullopt;
  std::vector<int64_t> f;
  for (int64_t x = lo; x <= end; ++x) {
    auto v = nest.Eval(x);
    if (!v) return std::nullopt;
    f.push_back(*v);
  }
  auto at = [&](int64_t x) { return f[static_cast<size_t>(x - lo)]; };
  // The line through f at x0 and x0 + 1; a slope of INT64_MAX (never a candidate) on overflow.
  auto line_from = [&](int64_t x0) {
    Candidate c;
    int64_t slope_x0;
    if (__builtin_sub_overflow(at(x0 + 1), at(x0), &c.slope) ||
        __builtin_mul_overflow(c.slope, x0, &slope_x0) ||
        __builtin_sub_overflow(at(x0), slope_x0, &c.intercept)) {
      c.slope = INT64_MAX;
    }
    return c;
  };
  // The shapes a clamped length takes: the tail line (past every breakpoint), clamped at the
  // head's value; the head line, clamped at the tail's; the first rising or falling line,
  // clamped at both.
  std::vector<Candidate> candidates;
  if (end > lo) {
    const Candidate tail = line_from(end - 1), head = line_from(lo);
    int64_t change = lo;
    while (change + 1 < end && at(change + 1) == at(change)) ++change;
    const Candidate middle = line_from(change);
    auto clamped = [](Candidate c, std::optional<int64_t> lower, std::optional<int64_t> upper) {
      c.lower = lower;
      c.upper = upper;
      return c;
    };
    candidates = {
        tail,
        clamped(tail, at(lo), std::nullopt),
        clamped(tail, std::nullopt, at(lo)),
        clamped(head, at(end), std::nullopt),
        clamped(head, std::nullopt, at(end)),
        clamped(middle, std::min(at(lo), at(end)), std::max(at(lo), at(end))),
    };
  } else {
    Candidate c;
    c.intercept = at(lo);
    candidates.push_back(c);
  }
  const int original_size = 1 + a->size + b->size;
  const DimNode* best = nullptr;
  for (const Candidate& c : candidates) {
    if (Abs(c.slope) > kMaxSpan || Abs(c.intercept) > kMaxSpan) continue;
    // Both are linear past both breakpoint bounds: agreeing up to two points past them (or
    // up to u's upper bound) is agreeing always.
    int64_t check_end = std::max(end, std::max(lo, c.BreakpointBound()) + 2);
    if (range.has_hi) check_end = std::min(check_end, range.hi);
    bool same = true;
    for (int64_t x = lo; x <= check_end && same; ++x) {
      std::optional<int64_t> fx = x <= end ? std::optional<int64_t>(at(x)) : nest.Eval(x);
      same = fx && fx == c.At(x);
    }
    if (!same) continue;
    const DimNode* form = c.Build(u, as);
    if (form && form->size < original_size && (!best || form->size < best->size)) best = form;
  }
  if (!best) return std::nullopt;
  return best;
}

// Rules, in order: unknown in -> unknown out; a <= b decides; b <= a decides; a nest over
// one variable gets its short form; else an atom.
const DimNode* MinOrMax(Kind kind, const DimNode* a, const DimNode* b, const Assumptions* as) {
  if (!a || !b) return nullptr;
  if (a == b) return a;
  const bool is_min = kind == Kind::kMin;
  if (LessEqualNodes(a, b, as) == Tri::kTrue) return is_min ? a : b;
  if (LessEqualNodes(b, a, as) == Tri::kTrue) return is_min ? b : a;
  if ((HasMinMax(a) || HasMinMax(b)) && a->size + b->size <= kMaxExprSize) {
    if (auto r = ShortForm(kind, a, b, as)) return *r;
  }
  if (Compare(b, a) < 0) std::swap(a, b);
  return MakeBinary(kind, a, b);
}

}  // namespace

const DimNode* Min(const DimNode* a, const DimNode* b, const Assumptions* as) {
  return MinOrMax(Kind::kMin, a, b, as);
}

const DimNode* Max(const DimNode* a, const DimNode* b, const Assumptions* as) {
  return MinOrMax(Kind::kMax, a, b, as);
}

}  // namespace onnx_infer::symbolic
