//===- EscapeFinder.h - Locals the dataflow cannot follow -------*- C++ -*-===//
//
// What the provenance dataflow learns of a function body before it runs:
// the locals whose address escapes (Unknown everywhere), the globals it
// names, the allocations it makes and the cudaHostRegister results it
// keeps in locals.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_ESCAPEFINDER_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_ESCAPEFINDER_H

#include "RegistrationFacts.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace cuda_async_lint::provenance {

/// Locals whose address or a reference to them is kept somewhere the
/// dataflow cannot follow: stored, captured by reference, bound to a
/// reference variable. They are Unknown everywhere. An '&p' passed straight
/// to a call is not an escape: the call's transfer handles it.
class EscapeFinder : public clang::RecursiveASTVisitor<EscapeFinder> {
public:
  llvm::DenseSet<const clang::VarDecl *> Escaped;
  /// The summarized globals the function names, in order of first mention.
  llvm::SetVector<const clang::VarDecl *> Globals;

  /// The expressions that allocate host memory: origins the function
  /// makes (Origin keys are the expressions themselves).
  AllocationSites Allocations;

  bool VisitDeclRefExpr(clang::DeclRefExpr *DRE);
  bool VisitCXXNewExpr(clang::CXXNewExpr *New);
  bool VisitCXXDeleteExpr(clang::CXXDeleteExpr *Delete);

  bool VisitCallExpr(clang::CallExpr *Call);
  bool VisitUnaryOperator(clang::UnaryOperator *UO);
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *ASE);
  /// 'Plan *p = plan': the array's elements may be written through p.
  bool VisitImplicitCastExpr(clang::ImplicitCastExpr *Cast);
  bool VisitLambdaExpr(clang::LambdaExpr *L);
  bool VisitVarDecl(clang::VarDecl *VD);

  /// Locals initialized with a cudaHostRegister call's result, and the
  /// call: a test of the local tests the call.
  llvm::DenseMap<const clang::VarDecl *, const clang::CallExpr *>
      RegisterResults;
  /// Tables of pointers: local 'T **h' initialized with an allocation
  /// ('(float **)malloc(n * sizeof(float *))', 'new float *[n]') and used
  /// only through subscripts ('h[i] = ...', '&h[i]') or released. Their
  /// elements are followed as one value (ProvenanceState::Pointees), as a
  /// local array's are. Set by finish().
  llvm::DenseSet<const clang::VarDecl *> PointerTables;
  /// Once the body is traversed.
  void finish();

private:
  /// Table candidates, each with its uses: all, and those a table allows.
  llvm::DenseMap<const clang::VarDecl *, std::pair<unsigned, unsigned>>
      TableUses;
  void tableUse(const clang::Expr *E);
  llvm::DenseSet<const clang::Expr *> PassedToCall;
  /// Call arguments and subscript bases: where a local array of structs
  /// may decay without an alias the analysis cannot follow (a call's
  /// transfer forgets what it may write).
  llvm::DenseSet<const clang::Expr *> DirectUses;
};

} // namespace cuda_async_lint::provenance

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_ESCAPEFINDER_H
