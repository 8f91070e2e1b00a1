//===- Check.cpp ----------------------------------------------------------===//

#include "cuda-async-lint/Check.h"
#include "InstantiationChain.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

namespace cuda_async_lint {

DiagnosticSink::~DiagnosticSink() = default;
Check::~Check() = default;

void Check::onStartOfTranslationUnit() {
  Reported.clear();
  Chains.clear();
  resetTranslationUnit();
}

void Check::onEndOfTranslationUnit() {
  Reported.clear();
  Chains.clear();
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
  if (!Reported.insert({F.Loc.getRawEncoding(), F.Message}).second)
    return;
  // A template of a header: which instantiation, requested where, is not
  // in view (in the unit's own file it is).
  if (F.Function && F.Function->isTemplateInstantiation() &&
      !SM.isInMainFile(SM.getExpansionLoc(F.Loc))) {
    auto [It, New] = Chains.try_emplace(F.Function);
    if (New)
      It->second = instantiationChain(F.Function, Context);
    F.Notes.insert(F.Notes.end(), It->second.begin(), It->second.end());
  }
  for (FindingNote &Note : F.Notes)
    Note.Loc = userLocation(Note.Loc, SM);
  F.CheckId = Id;
  Sink.report(F, Context);
}

} // namespace cuda_async_lint
