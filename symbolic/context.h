// SymbolContext: the owner of the interned nodes behind Dim (MLIR uniques per MLIRContext; so
// do we). Every Dim belongs to the context that was current on its thread when it was made,
// and stays valid exactly as long as that context lives: destroying the context frees every
// node made in it at once.
//
//   auto symbols = std::make_shared<symbolic::SymbolContext>();
//   {
//     symbolic::SymbolContext::Scope scope(*symbols);  // this thread now makes Dims in it
//     Dim d = Dim::Symbol("N") + Dim::Const(5);
//   }                                                  // back to the previous context
//   symbols.reset();                                   // d dangles from here on
//
// With no Scope open, a thread makes Dims in the process-wide default context, which is
// never destroyed (so symbolic/ used on its own, tests and tools work as before). Long-lived
// programs should not rely on it: it only grows. InferShapes (inference/infer_shapes.h) runs
// every inference in a context of its own, or in one the caller passes.
//
// Rules of use:
// - Every operation that builds a Dim interns in the current context, whatever context its
//   operands come from: arithmetic, FloorDiv/Min/..., Equal and LessEqual (they build the
//   difference), Simplify, Substitute, ParseDim, FreshSymbol. To work with a context's Dims
//   (e.g. an InferenceResult's), open a Scope on it first. Reading a Dim (queries,
//   ToString, Symbols, Evaluate, ==) builds nothing.
// - Dims of different contexts must not be combined or compared:
//   the same expression made in two contexts is two different pointers, so `==` says false,
//   and a node built from another context's Dim refers into that context. Debug builds
//   abort when a node is built from another context's Dim.
// - A context must outlive its Dims and every Scope open on it (debug builds check the
//   latter). Destroying a Dim never touches its node, so a struct holding Dims may be
//   destroyed after its context.
// - Thread safety: a context may be shared: several threads may each open a Scope on the
//   same context and make Dims in it at once. Its table is guarded by a mutex of its own, so
//   threads contend only when they share a context; threads with contexts of their own never
//   wait on each other. Reading a Dim (printing, comparing, Evaluate) takes no lock: nodes
//   are immutable once made.
#ifndef ONNX_INFER_SYMBOLIC_CONTEXT_H_
#define ONNX_INFER_SYMBOLIC_CONTEXT_H_

#include <cstddef>
#include <cstdint>
#include <memory>

namespace onnx_infer::symbolic {

struct DimNode;
struct NodeKey;
class InternTable;

class SymbolContext {
 public:
  SymbolContext();
  ~SymbolContext();
  SymbolContext(const SymbolContext&) = delete;
  SymbolContext& operator=(const SymbolContext&) = delete;

  // Makes `context` the current one of this thread until the Scope ends, then restores the
  // previous one. Scopes nest; each must end on the thread that opened it (it is neither
  // copyable nor movable).
  class Scope {
   public:
    explicit Scope(SymbolContext& context);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    SymbolContext* context_;
    SymbolContext* previous_;
  };

  // The context this thread makes Dims in: the innermost open Scope's, else Default().
  static SymbolContext& Current();
  // The process-wide context used when no Scope is open. Never destroyed.
  static SymbolContext& Default();

  // The number of distinct nodes this context holds (what its memory grows with).
  size_t node_count() const;
  // The number of SymbolContexts alive in the process, the default one included (for tests
  // and leak checks).
  static int64_t LiveContexts();

 private:
  friend const DimNode* Intern(const NodeKey& key);
  friend const DimNode* InternConst(int64_t value);
  friend bool LookupProduct(const DimNode* const* factors, size_t count, const DimNode** result);
  friend void RememberProduct(const DimNode* const* factors, size_t count, const DimNode* result);
  std::unique_ptr<InternTable> table_;
};

}  // namespace onnx_infer::symbolic

#endif  // ONNX_INFER_SYMBOLIC_CONTEXT_H_
