//===- HazardText.cpp -----------------------------------------------------===//

#include "HazardText.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace cuda_async_lint {

std::string sourceText(const Expr *E, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = CharSourceRange::getTokenRange(
      SM.getFileLoc(E->getBeginLoc()), SM.getFileLoc(E->getEndLoc()));
  return Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
}

AccessWords accessWords(AccessKind Kind) {
  switch (Kind) {
  case AccessKind::Read:
    return {"is read", "the read of"};
  case AccessKind::Write:
    return {"is written", "the write of"};
  case AccessKind::Release:
    return {"is released", "the release of"};
  case AccessKind::EndOfLifetime:
    return {"goes out of scope", "the end of the lifetime of"};
  }
  return {"is accessed", "the access to"};
}

SourceLocation accessLocation(const HostAccess &A) {
  if (A.Kind == AccessKind::EndOfLifetime)
    if (const auto *Scope = dyn_cast<CompoundStmt>(A.At))
      return Scope->getRBracLoc();
  return A.At->getBeginLoc();
}

std::string accessedBuffer(const HostAccess &A, const ASTContext &Ctx) {
  const Expr *Named = A.Within ? A.Within : A.Spelled;
  return Named ? sourceText(Named, Ctx) : A.Buffer.Base->getNameAsString();
}

std::string waitFor(const PendingTransfer &P, const ASTContext &Ctx) {
  const ApiSpec *Api = lookupApi(P.Op);
  std::string Sync = platformApis(platformOf(Api, Ctx)).StreamSynchronize.str();
  if (P.Stream.K == StreamRef::Kind::Legacy)
    return Sync + "(0)";
  return P.StreamArg ? Sync + "(" + sourceText(P.StreamArg, Ctx) + ")" : Sync;
}

} // namespace cuda_async_lint
