//===- ProvenanceCheck.h - Checks asking where memory came from -*- C++ -*-===//
//
// The base of the checks that ask the provenance analysis about pointers:
// it acquires the translation unit's shared ProvenanceAnalysis on first use
// and lets go of it when the translation unit ends.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_PROVENANCECHECK_H
#define CUDA_ASYNC_LINT_PROVENANCECHECK_H

#include "analysis/provenance/ProvenanceAnalysis.h"
#include "cuda-async-lint/Check.h"

namespace cuda_async_lint {

class ProvenanceCheck : public Check {
protected:
  using Check::Check;

  /// The provenance of \p Ptr when \p At runs in \p Function. Unknown in a
  /// template's pattern: templates are analysed through their
  /// instantiations, where types and callees are resolved.
  /// \p HostByContract: \p At's direction says \p Ptr is host memory
  /// (FunctionProvenance::pointerAt).
  HostProvenance provenanceAt(const clang::FunctionDecl *Function,
                              const clang::Stmt *At, const clang::Expr *Ptr,
                              clang::ASTContext &Ctx,
                              bool HostByContract = false);

  /// The translation unit's shared provenance analysis.
  ProvenanceAnalysis &provenance(clang::ASTContext &Ctx);

  void resetTranslationUnit() override { Provenance.reset(); }

private:
  std::shared_ptr<ProvenanceAnalysis> Provenance;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_PROVENANCECHECK_H
