//===- LocalWrites.h - Locals written after their first value --*- C++ -*-===//
//
// The part of a visitor that finds which locals keep their first value:
// every local an assignment, an increment or decrement writes, or whose
// address is taken (it may be written through), lands in Written.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_LOCALWRITES_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_LOCALWRITES_H

#include "LocalAliases.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

namespace cuda_async_lint {

/// A RecursiveASTVisitor base: \p Derived may define
/// 'bool addressOnlyInitializes(const clang::UnaryOperator *)' for an
/// address given to a call that only gives the local its first value.
template <class Derived>
class LocalWrites : public clang::RecursiveASTVisitor<Derived> {
public:
  llvm::DenseSet<const clang::VarDecl *> Written;

  bool VisitBinaryOperator(clang::BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      if (const clang::VarDecl *VD = localVar(BO->getLHS()))
        Written.insert(VD);
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() ||
        (UO->getOpcode() == clang::UO_AddrOf &&
         !static_cast<Derived *>(this)->addressOnlyInitializes(UO)))
      if (const clang::VarDecl *VD = localVar(UO->getSubExpr()))
        Written.insert(VD);
    return true;
  }
  bool addressOnlyInitializes(const clang::UnaryOperator *) const {
    return false;
  }
};

} // namespace cuda_async_lint

#endif
