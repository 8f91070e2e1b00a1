//===- CallsThatIssue.cpp -------------------------------------------------===//

#include "CallsThatIssue.h"
#include "IterationWork.h"
#include "analysis/code/StmtWalk.h"
#include "api/CudaApiCatalog.h"
#include "api/StreamRef.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include <vector>

using namespace clang;

namespace cuda_async_lint {

namespace {

/// The work \p Body issues directly that no later wait covers: a stream
/// synchronization takes out its stream's work; a device or event
/// synchronization, or a blocking copy, everything (precision first: an
/// event may cover any of it).
std::vector<AsyncOperation> uncoveredWork(const Stmt *Body,
                                          const ASTContext &Ctx) {
  std::vector<AsyncOperation> Pending;
  auto Step = [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (std::optional<AsyncOperation> Op = streamWork(S, Ctx)) {
      // Thrust's synchronizing policies: done with its stream on return.
      if (const Expr *Waited = libraryWaitStream(Call)) {
        llvm::erase_if(Pending, [&](const AsyncOperation &P) {
          return libraryWaitCovers(Waited, P, Ctx);
        });
        return;
      }
      Pending.push_back(*Op);
      return;
    }
    const ApiSpec *Api = lookupApi(Call);
    if (!Api || !isHostSynchronization(Call, Ctx))
      return;
    if (Api->Kind != ApiKind::StreamSync) {
      Pending.clear();
      return;
    }
    StreamRef Waited = streamRef(Api->arg(Call, ArgRole::Stream));
    llvm::erase_if(Pending, [&](const AsyncOperation &Op) {
      StreamRef On = streamRef(Op.Stream);
      return Waited.K == StreamRef::Kind::Unknown ||
             On.K == StreamRef::Kind::Unknown || On == Waited;
    });
  };
  forEachStmtOutsideLambdas(Body, Step);
  return Pending;
}

} // namespace

std::optional<AsyncOperation> workLeftInFlight(const CallExpr *Call,
                                               const ASTContext &Ctx) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD || lookupApi(Call) || isa<CXXOperatorCallExpr>(Call) ||
      !FD->hasBody(Def) || !Def)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return std::nullopt;
  std::vector<AsyncOperation> Left = uncoveredWork(Def->getBody(), Ctx);
  if (Left.empty())
    return std::nullopt;
  const Expr *Stream = Left.front().Stream;
  // Issued on a stream parameter: the stream the caller passed.
  if (const auto *Ref =
          Stream ? dyn_cast<DeclRefExpr>(Stream->IgnoreParenImpCasts())
                 : nullptr)
    if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl())) {
      unsigned Index = Param->getFunctionScopeIndex();
      if (Index >= Call->getNumArgs())
        return std::nullopt;
      Stream = Call->getArg(Index);
    }
  return AsyncOperation{Call, false, Stream};
}

const Expr *streamArgumentOf(const CallExpr *Call,
                             const std::optional<AsyncOperation> &Work) {
  return Work && Work->Stream &&
                 llvm::is_contained(Call->arguments(), Work->Stream)
             ? Work->Stream
             : nullptr;
}

std::optional<AsyncOperation> CallsThatIssue::work(const CallExpr *Call) const {
  auto [It, New] = Done.try_emplace(Call);
  if (New)
    It->second = workLeftInFlight(Call, Ctx);
  return It->second;
}

} // namespace cuda_async_lint
