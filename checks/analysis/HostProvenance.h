//===- HostProvenance.h - What a host pointer points to ---------*- C++ -*-===//
//
// The provenance of pointers within one function: a flow-sensitive dataflow
// over clang's CFG through declarations, assignments, casts, pointer
// arithmetic, '&p' out-parameters of allocators, .data()/.get(), and the
// cudaHostRegister/cudaHostUnregister ranges. Paths that disagree join to
// unknown; parameters, globals and anything that escapes are unknown.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_HOSTPROVENANCE_H
#define CUDA_ASYNC_LINT_ANALYSIS_HOSTPROVENANCE_H

#include "../api/MemoryKind.h"
#include "ProvenanceLattice.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
} // namespace clang

namespace cuda_async_lint {

/// The answer to "what does this pointer point to here?".
struct HostProvenance {
  /// std::nullopt: unknown (the analysis cannot tell, so checks stay silent).
  std::optional<MemoryKind> Kind;
  /// Where the memory was allocated or declared.
  llvm::SmallVector<Origin, 2> Origins;

  bool is(MemoryKind K) const { return Kind == K; }
};

/// A note for an origin: its location and a sentence saying what it is.
struct OriginNote {
  clang::SourceLocation Loc;
  std::string Message;
};
OriginNote describeOrigin(Origin O, MemoryKind K);

/// The provenance analysis of one function body, run once.
class FunctionProvenance {
public:
  FunctionProvenance(const clang::FunctionDecl *FD, clang::ASTContext &Ctx);
  ~FunctionProvenance();

  /// The provenance of \p Ptr, an argument of the CUDA API call \p Call, as
  /// it is when \p Call runs. Unknown for calls on paths the CFG does not
  /// reach and for calls the catalog does not know.
  HostProvenance pointerAt(const clang::CallExpr *Call,
                           const clang::Expr *Ptr) const;

private:
  llvm::DenseSet<const clang::VarDecl *> Escaped;
  std::map<const clang::CallExpr *, ProvenanceState> StateAtCall;
};

/// One FunctionProvenance per function of a translation unit, built on first
/// use.
class ProvenanceCache {
public:
  const FunctionProvenance &get(const clang::FunctionDecl *FD,
                                clang::ASTContext &Ctx);
  void clear() { Functions.clear(); }

private:
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::unique_ptr<FunctionProvenance>>
      Functions;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_HOSTPROVENANCE_H
