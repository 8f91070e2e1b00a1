//===- Check.cpp ----------------------------------------------------------===//

#include "cuda-async-lint/Check.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

namespace cuda_async_lint {

DiagnosticSink::~DiagnosticSink() = default;
Check::~Check() = default;

void Check::onStartOfTranslationUnit() {
  Reported.clear();
  resetTranslationUnit();
}

void Check::onEndOfTranslationUnit() {
  Reported.clear();
  resetTranslationUnit();
}

/// Where the user wrote \p Loc: the CUDA headers rename API calls through
/// macros (cudaMemcpyAsync -> cudaMemcpyAsync_ptsz, cuMemAlloc ->
/// cuMemAlloc_v2); a finding points at the call as spelled, not into them.
static clang::SourceLocation userLocation(clang::SourceLocation Loc,
                                          const clang::SourceManager &SM) {
  while (Loc.isMacroID() && SM.isInSystemMacro(Loc))
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  return Loc;
}

void Check::report(Finding F, clang::ASTContext &Context) {
  const clang::SourceManager &SM = Context.getSourceManager();
  F.Loc = userLocation(F.Loc, SM);
  for (FindingNote &Note : F.Notes)
    Note.Loc = userLocation(Note.Loc, SM);
  if (!Reported.insert({F.Loc.getRawEncoding(), F.Message}).second)
    return;
  F.CheckId = Id;
  Sink.report(F, Context);
}

} // namespace cuda_async_lint
