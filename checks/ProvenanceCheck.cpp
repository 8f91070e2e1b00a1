//===- ProvenanceCheck.cpp ------------------------------------------------===//

#include "ProvenanceCheck.h"

namespace cuda_async_lint {

HostProvenance
ProvenanceCheck::provenanceAt(const clang::FunctionDecl *Function,
                              const clang::Stmt *At, const clang::Expr *Ptr,
                              clang::ASTContext &Ctx) {
  if (!Function || Function->isDependentContext())
    return {};
  if (!Provenance)
    Provenance = ProvenanceAnalysis::forTranslationUnit(Ctx);
  return Provenance->function(Function).pointerAt(At, Ptr);
}

} // namespace cuda_async_lint
