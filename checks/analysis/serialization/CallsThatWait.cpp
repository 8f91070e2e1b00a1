//===- CallsThatWait.cpp --------------------------------------------------===//

#include "CallsThatWait.h"
#include "analysis/code/ObjectReferences.h"
#include "analysis/code/StmtWalk.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Which stream of the caller's an expression in the callee names: a stream
/// parameter, or a stream member of its own object.
struct CallerStream {
  const ParmVarDecl *Param = nullptr;
  const FieldDecl *Member = nullptr;
  bool names(const Expr *E) const {
    if (!E)
      return false;
    if (Param)
      return declRefVar(E) == Param;
    return Member && thisMember(E) == Member;
  }
};

/// Whether a member function or constructor of \p Class creates the
/// stream member \p Member of its own object
/// (cudaStreamCreate(&stream)): each object owns a stream of its own.
bool createsPerObject(const CXXRecordDecl *Class, const FieldDecl *Member) {
  for (const CXXMethodDecl *M : Class->methods()) {
    const FunctionDecl *Def = nullptr;
    if (!M->hasBody(Def) || !Def)
      continue;
    bool Creates = false;
    forEachStmtOutsideLambdas(Def->getBody(), [&](const Stmt *S) {
      const auto *Call = dyn_cast<CallExpr>(S);
      const ApiSpec *Api = lookupApi(Call);
      if (!Api || Api->Kind != ApiKind::StreamCreate)
        return;
      if (const Expr *Out = Api->arg(Call, ArgRole::Out))
        if (const Expr *Operand = addressOfOperand(Out))
          Creates |= thisMember(Operand) == Member;
    });
    if (Creates)
      return true;
  }
  return false;
}

/// The first direct call in \p Body that issues work on \p Stream, and the
/// first after it that synchronizes it (or the device).
std::pair<const CallExpr *, const CallExpr *>
workThenWait(const Stmt *Body, const CallerStream &Stream,
             const ASTContext &Ctx) {
  const CallExpr *Work = nullptr, *Wait = nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  forEachStmtOutsideLambdas(Body, [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call || Wait)
      return;
    if (!Work) {
      if (std::optional<AsyncOperation> Op = streamWork(S, Ctx, nullptr))
        if (Stream.names(Op->Stream))
          Work = Call;
      return;
    }
    const ApiSpec *Api = lookupApi(Call);
    if (!Api ||
        !SM.isBeforeInTranslationUnit(Work->getBeginLoc(), Call->getBeginLoc()))
      return;
    if (Api->Kind == ApiKind::DeviceSync ||
        (Api->Kind == ApiKind::StreamSync &&
         Stream.names(Api->arg(Call, ArgRole::Stream))))
      Wait = Call;
  });
  return {Work, Wait};
}

} // namespace

std::optional<CallWait> callWaitsForItsWork(const CallExpr *Call,
                                            SyncSummaries &Syncs) {
  const FunctionDecl *FD = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD || lookupApi(Call) || isa<CXXOperatorCallExpr>(Call) ||
      !FD->hasBody(Def) || !Def)
    return std::nullopt;
  ASTContext &Ctx = Syncs.context();
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return std::nullopt;
  const SyncSummary *Summary = Syncs.summary(FD);
  if (!Summary)
    return std::nullopt;
  // A stream parameter it synchronizes, on every path that returns.
  for (unsigned I : Summary->StreamParams) {
    if (I >= Call->getNumArgs() || I >= Def->getNumParams())
      continue;
    CallerStream Stream{Def->getParamDecl(I), nullptr};
    auto [Work, Wait] = workThenWait(Def->getBody(), Stream, Ctx);
    if (Work && Wait)
      return CallWait{Wait, Work, Call->getArg(I)};
  }
  // A stream member of the object it is called on.
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const auto *MD = dyn_cast<CXXMethodDecl>(Def);
  if (!Member || !MD || !Member->getImplicitObjectArgument())
    return std::nullopt;
  for (const FieldDecl *Field : Summary->StreamMembers) {
    if (!createsPerObject(MD->getParent(), Field))
      continue;
    CallerStream Stream{nullptr, Field};
    auto [Work, Wait] = workThenWait(Def->getBody(), Stream, Ctx);
    if (Work && Wait)
      return CallWait{Wait, Work, Member->getImplicitObjectArgument()};
  }
  return std::nullopt;
}

} // namespace cuda_async_lint
