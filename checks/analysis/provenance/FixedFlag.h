//===- FixedFlag.h - A flag with one value at all its tests -----*- C++ -*-===//
//
// 'if (usePinned) cudaMallocHost(&p, n); else p = malloc(n); ...
// if (usePinned) cudaFreeHost(p); else free(p);': both tests of usePinned
// see the same value on every path, so each release meets only the
// allocation of its own branch. A dataflow that joins the two allocations
// before the second test cannot tell; run once per value of the flag, with
// the edges of the other value infeasible, it can.
//
// A flag is fixed where no path from one of its tests reaches a write of it:
// a stable local or parameter (BranchFacts.h) that the function does not
// write after its first test, or a global that only main writes (main runs
// once and nothing calls it) and that no other unit can name.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_FIXEDFLAG_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_FIXEDFLAG_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <vector>

namespace cuda_async_lint {

class FixedFlag {
public:
  /// The fixed flags that two or more branches of \p Cfg (of \p FD) test,
  /// at most \p Max, those tested most first. \p WrittenOnlyByMain tells
  /// whether a global is written in main alone, and nowhere else can be.
  static std::vector<FixedFlag>
  find(const clang::FunctionDecl *FD, const clang::CFG &Cfg,
       clang::ASTContext &Ctx,
       llvm::function_ref<bool(const clang::VarDecl *)> WrittenOnlyByMain,
       size_t Max);

  /// False if no path where the flag is \p Value takes edge \p SuccIndex
  /// out of \p From.
  bool feasible(const clang::CFGBlock &From, unsigned SuccIndex,
                bool Value) const;

  const clang::VarDecl *variable() const { return Var; }

private:
  const clang::VarDecl *Var = nullptr;
  /// Per block that tests the flag (by ID): its successor when it is true.
  llvm::DenseMap<unsigned, unsigned> TrueEdge;
};

/// The scalar globals of a translation unit that only main writes, that
/// no other unit can name and whose address is never taken: their value
/// changes only where main's analysis sees it.
class MainOnlyGlobals {
public:
  explicit MainOnlyGlobals(clang::ASTContext &Ctx);
  bool contains(const clang::VarDecl *VD) const;

private:
  const clang::SourceManager &SM;
  /// Written outside main, or whose address is taken.
  llvm::DenseSet<const clang::VarDecl *> Others;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_FIXEDFLAG_H
