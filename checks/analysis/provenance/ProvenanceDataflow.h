//===- ProvenanceDataflow.h - The transfer functions ------------*- C++ -*-===//
//
// The transfer functions of the host-pointer provenance dataflow over
// clang's CFG: declarations, assignments, calls and their effects, the
// cudaHostRegister/cudaHostUnregister ranges, and branch conditions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCEDATAFLOW_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCEDATAFLOW_H

#include "FixedFlag.h"
#include "ProvenanceEvaluator.h"
#include "analysis/code/FieldStores.h"
#include "clang/Analysis/CFG.h"

namespace cuda_async_lint::provenance {

/// The transfer functions over CFG elements.
class ProvenanceDataflow {
public:
  using State = ProvenanceState;

  ProvenanceDataflow(
      const llvm::DenseSet<const clang::VarDecl *> &Escaped,
      const llvm::DenseSet<const clang::VarDecl *> &PointerTables,
      const llvm::DenseMap<const clang::VarDecl *, const clang::CallExpr *>
          &RegisterResults,
      SummaryProvider *Summaries, const clang::FunctionDecl *Function,
      llvm::ArrayRef<const clang::VarDecl *> Globals,
      const AllocationSites &Allocations)
      : Escaped(Escaped), PointerTables(PointerTables),
        RegisterResults(RegisterResults), Summaries(Summaries),
        Function(Function), Globals(Globals), Allocations(Allocations) {}

  /// The globals the function names start with what they hold on entry.
  State entryState() const;
  void join(State &Into, const State &From) const;
  Evaluator evaluator(const State &S) const;

  void transfer(const clang::CFGElement &Element, State &S) const;

  /// Follows only the paths where each of \p Flags is true if its bit of
  /// \p Values is set, false otherwise.
  void assume(llvm::ArrayRef<FixedFlag> Flags, unsigned Values);

  /// No path takes an edge of a test of an assumed flag that disagrees
  /// with its value.
  ///
  /// On the branch where a cudaHostRegister call reported failure, nothing
  /// was registered: 'if (cudaHostRegister(p, n, 0) != cudaSuccess)',
  /// 'if (err)', 'if (err == cudaSuccess)' (its false branch), '!err'.
  bool transferEdge(const clang::CFGBlock &From, unsigned SuccIndex,
                    State &S) const;

  /// What a call stores through its argument \p Arg: an allocator's or a
  /// summarized function's out-parameter. std::nullopt if nothing.
  std::optional<PointerValue> storedThrough(const clang::CallExpr *Call,
                                            unsigned Arg) const;

private:
  /// A local array of plain structs declared without pointers in its
  /// initializer: every pointer field starts null (or indeterminate), so
  /// the first stores into its elements say what they hold.
  void startObjectArray(const clang::VarDecl *VD, State &S) const;

  PointerValue initialValue(const clang::VarDecl *VD,
                            const Evaluator &Eval) const;

  /// Stores \p V into the lvalue \p LHS: a strong update of a local pointer,
  /// a weak update (join) of an element of a local array of pointers, the
  /// pointee of an out-parameter ('*out = p', 'out[0] = p', 'ref = p').
  /// Fields are summarized separately (see FunctionProvenance).
  void assign(const clang::Expr *LHS, PointerValue V, State &S) const;

  /// Stores \p V through the out-parameter argument \p Arg: '&p', '&a[i]',
  /// a T** parameter passed on, or a T*& argument.
  void storeThrough(const clang::Expr *Arg, bool ByReference, PointerValue V,
                    State &S) const;

  void setRegistration(const clang::Expr *Ptr, Registration R,
                       const clang::CallExpr *By, State &S) const;

  void setRegistration(llvm::ArrayRef<const void *> Keys, Registration R,
                       const clang::CallExpr *By, State &S) const;

  /// Every registration may have been undone; the mark says so to callers.
  static void forgetRegistrations(State &S);

  /// True if a callee may store anything through \p Arg: '&x' of a tracked
  /// local or a summarized global, or a tracked local bound to a non-const
  /// reference (\p MutableReference).
  static bool isClobberable(const clang::Expr *Arg, bool MutableReference);

  /// Anything was stored through \p Arg (isClobberable).
  void clobber(const clang::Expr *Arg, State &S) const;

  void call(const clang::CallExpr *Call, State &S) const;

  const llvm::DenseSet<const clang::VarDecl *> &Escaped;
  const llvm::DenseSet<const clang::VarDecl *> &PointerTables;
  const llvm::DenseMap<const clang::VarDecl *, const clang::CallExpr *>
      &RegisterResults;
  SummaryProvider *Summaries;
  const clang::FunctionDecl *Function;
  llvm::ArrayRef<const clang::VarDecl *> Globals;
  /// The allocating expressions of the function, numbered (EscapeFinder).
  const AllocationSites &Allocations;
  llvm::ArrayRef<FixedFlag> Assumed;
  unsigned AssumedValues = 0;
  mutable FieldStoreAnswers FieldStores;
};

} // namespace cuda_async_lint::provenance

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCEDATAFLOW_H
