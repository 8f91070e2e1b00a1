//===- ParameterTransfers.cpp - What a function leaves in flight ----------===//
//
// A helper that issues a copy into (or from) the memory a pointer parameter
// points to and returns without waiting leaves it in flight for its caller:
// 'fetch(h, d, n, s); use(h[0]);' reads 'h' while the copy may still write
// it. The transfers pending at the helper's exit, on a whole pointer
// parameter, are the caller's at each call (TransferDataflow's
// issueParameterTransfers).
//
//===----------------------------------------------------------------------===//

#include "MemberEffects.h"
#include "TransferDataflow.h"
#include "analysis/code/EveryCallCode.h"
#include "analysis/dataflow/ForwardDataflow.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

using namespace pending;

namespace {

/// Whether \p Root issues an async copy, itself or through a call of a
/// function defined in this translation unit (which may): the only
/// functions whose parameters can be left with a copy in flight.
bool mayIssueCopies(const Stmt *Root, const SourceManager &SM) {
  if (!Root)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(Root)) {
    if (const ApiSpec *Api = lookupApi(Call))
      return Api->Kind == ApiKind::Copy && Api->Mode == ApiMode::Async;
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->hasBody() &&
        !SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
      return true;
  }
  for (const Stmt *Child : Root->children())
    if (mayIssueCopies(Child, SM))
      return true;
  return false;
}

/// Whether \p E names parameter \p P whole ('h', '(void *)h').
bool namesWhole(const Expr *E, const ParmVarDecl *P) {
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()) : nullptr;
  return DRE && DRE->getDecl() == P;
}

} // namespace

const std::vector<ParameterTransfer> &
SyncSummaries::parameterTransfers(const FunctionDecl *FD,
                                  ProvenanceAnalysis &Provenance) {
  static const std::vector<ParameterTransfer> None;
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Def = userDefinition(FD);
  if (!Def || EffectsInProgress.count(Def))
    return None;
  if (auto It = ParameterEffects.find(Def); It != ParameterEffects.end())
    return It->second;
  std::vector<ParameterTransfer> &Result = ParameterEffects[Def];
  bool PointerParameter = llvm::any_of(Def->parameters(), [](const auto *P) {
    QualType T = P->getType();
    return T->isPointerType() && !T->getPointeeType()->isFunctionType();
  });
  if (!PointerParameter || !mayIssueCopies(Def->getBody(), SM))
    return Result;
  std::unique_ptr<CFG> Cfg = buildAnalysisCFG(Def, Ctx, /*Lifetimes=*/true);
  if (!Cfg)
    return Result;
  EffectsInProgress.insert(Def);
  HostAccessFinder Accesses(Def);
  TransferDataflow Dataflow(Def, Ctx, Provenance, *this, Accesses, {});
  std::vector<TransferHazard> Hazards;
  std::vector<std::optional<PendingState>> In =
      solveAndReplay(*Cfg, Dataflow, Hazards);
  TransferSet Left;
  if (const std::optional<PendingState> Exit = returnState(*Cfg, Dataflow, In))
    for (const Disjunct &D : Exit->Disjuncts)
      for (const PendingTransfer &P : D.Pending) {
        const auto *Param = dyn_cast_or_null<ParmVarDecl>(P.Buffer.Base);
        // The whole parameter, as written: a slice ('h + i') may not be
        // the part the caller touches next.
        if (P.Op && Param && Param->getDeclContext() == Def &&
            P.Buffer.Deps.empty() && P.Buffer.Stale.empty() &&
            !P.Buffer.Object && namesWhole(P.HostArg, Param))
          Left.insert(P);
      }
  for (const PendingTransfer &P : Left) {
    ParameterTransfer T{
        P, cast<ParmVarDecl>(P.Buffer.Base)->getFunctionScopeIndex(),
        std::nullopt};
    if (const auto *Stream = dyn_cast_or_null<ParmVarDecl>(P.Stream.Decl))
      T.StreamParam = Stream->getFunctionScopeIndex();
    else if (P.Stream.Decl && !isa<FieldDecl>(P.Stream.Decl))
      T.Transfer.Stream = StreamRef::unknown(); // A local stream.
    Result.push_back(std::move(T));
  }
  EffectsInProgress.erase(Def);
  // The map may have grown while the callee's own callees were analysed.
  return ParameterEffects[Def];
}

} // namespace cuda_async_lint
