//===- ProvenanceCheck.cpp ------------------------------------------------===//

#include "ProvenanceCheck.h"

namespace cuda_async_lint {

HostProvenance
ProvenanceCheck::provenanceAt(const clang::FunctionDecl *Function,
                              const clang::Stmt *At, const clang::Expr *Ptr,
                              clang::ASTContext &Ctx, bool HostByContract) {
  if (!Function || Function->isDependentContext())
    return {};
  return provenance(Ctx).function(Function).pointerAt(At, Ptr, HostByContract);
}

ProvenanceAnalysis &ProvenanceCheck::provenance(clang::ASTContext &Ctx) {
  if (!Provenance)
    Provenance = ProvenanceAnalysis::forTranslationUnit(Ctx);
  return *Provenance;
}

} // namespace cuda_async_lint
