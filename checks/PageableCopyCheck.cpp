//===- PageableCopyCheck.cpp - cuda-async-pageable-copy -------------------===//

#include "PageableCopyCheck.h"
#include "analysis/code/HostFunctions.h"
#include "analysis/code/ParameterCopies.h"
#include "analysis/pending/HazardText.h"
#include "api/CudaApiCatalog.h"
#include "api/ReleaseSite.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_async_lint {

PageableCopyCheck::PageableCopyCheck(DiagnosticSink &Sink,
                                     const CheckOptions &Options)
    : ProvenanceCheck("cuda-async-pageable-copy", Sink),
      MinCopySize(Options.unsignedOr("MinCopySize", 0)) {}

void PageableCopyCheck::storeOptions(StoreOption Store) const {
  Store("MinCopySize", std::to_string(MinCopySize));
}

/// Whether \p Copy moves fewer than \p MinCopySize bytes, by a byte count
/// the compiler can evaluate: a few bytes staged through the driver's
/// pinned buffer cost little next to a launch, a project may not care.
static bool belowMinimum(const CallExpr *Copy, const ApiSpec &Api,
                         uint64_t MinCopySize, const ASTContext &Ctx) {
  if (MinCopySize == 0)
    return false;
  const Expr *Size = Api.arg(Copy, ArgRole::Size);
  Expr::EvalResult Result;
  if (!Size || Size->isValueDependent() || !Size->EvaluateAsInt(Result, Ctx))
    return false;
  const llvm::APSInt &Bytes = Result.Val.getInt();
  return Bytes.isNonNegative() && Bytes.getZExtValue() < MinCopySize;
}

void PageableCopyCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(callExpr(apiCall(ApiKind::Copy, ApiMode::Async),
                             inHostFunction(functionDecl().bind("function")))
                        .bind("copy"),
                    this);
  // Calls of the unit's functions that copy what they are given.
  Finder.addMatcher(callOfUserFunction(), this);
}

/// A call that hands pageable memory to a function of the unit whose own
/// copy of it the analysis cannot call pageable there (other callers may
/// pass pinned memory): the call is where this copy is staged.
void PageableCopyCheck::checkHelperCall(const CallExpr *Call,
                                        const FunctionDecl *Helper,
                                        const FunctionDecl *Function,
                                        ASTContext &Ctx) {
  std::set<unsigned> Reported;
  for (const ParameterCopy &PC :
       HelperCopies.get(Helper->getCanonicalDecl(), [](const FunctionDecl *FD) {
         return parameterCopies(FD);
       })) {
    const ApiSpec *Api = lookupApi(PC.Copy);
    if (PC.Param >= Call->getNumArgs() || Reported.count(PC.Param) || !Api ||
        belowMinimum(PC.Copy, *Api, MinCopySize, Ctx))
      continue;
    // Reported at the copy already: every call passes pageable memory; or
    // at the helper's own call that hands it on.
    bool Host = PC.Side.HostByDirection;
    if (provenanceAt(PC.In, PC.Copy, PC.Side.Arg, Ctx, Host)
            .is(MemoryKind::Pageable))
      continue;
    const FunctionDecl *HelperDef = nullptr;
    if (PC.Via && Helper->hasBody(HelperDef) &&
        provenanceAt(HelperDef, PC.Via, PC.ViaArg, Ctx)
            .is(MemoryKind::Pageable))
      continue;
    const Expr *Arg = Call->getArg(PC.Param);
    HostProvenance P = provenanceAt(Function, Call, Arg, Ctx, Host);
    if (!P.is(MemoryKind::Pageable))
      continue;
    Reported.insert(PC.Param);
    const PlatformApis &Platform = platformApis(platformOf(Api, Ctx));
    Finding F;
    F.Function = Function;
    F.Loc = Arg->getBeginLoc();
    F.Message = ("'" + Helper->getNameAsString() + "' copies " +
                 (PC.Side.IsDestination ? "into" : "from") +
                 " this pageable host memory with '" + Api->Name +
                 "', which is then staged and synchronous; allocate the "
                 "buffer with " +
                 Platform.PinnedAllocators + ", or pin it with " +
                 Platform.Register + ", to let it overlap")
                    .str();
    for (Origin O : P.Origins) {
      OriginNote Note = describeOrigin(O, MemoryKind::Pageable,
                                       Ctx.getSourceManager(), F.Loc);
      F.Notes.push_back({Note.Loc, Note.Message});
    }
    F.Notes.push_back({PC.Copy->getBeginLoc(), "the asynchronous copy"});
    report(std::move(F), Ctx);
  }
}

const TransferHazard *
PageableCopyCheck::reliesOnSynchronousCopy(const FunctionDecl *Function,
                                           const CallExpr *Copy, bool IntoHost,
                                           ASTContext &Ctx) {
  if (!Function || Function->isDependentContext())
    return nullptr;
  if (!Syncs)
    Syncs = SyncSummaries::forTranslationUnit(Ctx);
  const std::vector<TransferHazard> &Hazards =
      IfPinned.get(Function, [&](const FunctionDecl *FD) {
        return findHazardsIfPinned(FD, Ctx, provenance(Ctx), *Syncs);
      });
  for (const TransferHazard &H : Hazards)
    if (H.Transfer.Op == Copy && H.Transfer.DeviceWrites == IntoHost)
      return &H;
  return nullptr;
}

void PageableCopyCheck::run(const MatchFinder::MatchResult &R) {
  const auto *Function = R.Nodes.getNodeAs<FunctionDecl>("function");
  if (const auto *Call = R.Nodes.getNodeAs<CallExpr>("call")) {
    if (!Function->isDependentContext())
      checkHelperCall(Call, R.Nodes.getNodeAs<FunctionDecl>("helper"), Function,
                      *R.Context);
    return;
  }
  const auto *Copy = R.Nodes.getNodeAs<CallExpr>("copy");
  const ApiSpec *Api = lookupApi(Copy);
  if (!Api || belowMinimum(Copy, *Api, MinCopySize, *R.Context))
    return;
  // A direction given as a parameter ('kind') that every call passes alike.
  const CallExpr *KindFrom = nullptr;
  const ParmVarDecl *KindParam = nullptr;
  auto Parameter = [&](const ParmVarDecl *PD) -> std::optional<int64_t> {
    if (!Function || Function->isDependentContext())
      return std::nullopt;
    auto Constant = provenance(*R.Context).constantParameter(PD);
    if (!Constant)
      return std::nullopt;
    KindFrom = Constant->second;
    KindParam = PD;
    return Constant->first;
  };
  for (const HostSide &Side : hostSides(Copy, *Api, *R.Context, Parameter)) {
    HostProvenance P = provenanceAt(Function, Copy, Side.Arg, *R.Context,
                                    Side.HostByDirection);
    if (!P.is(MemoryKind::Pageable))
      continue;
    const PlatformApis &Platform = platformApis(platformOf(Api, *R.Context));
    Finding F;
    F.Function = Function;
    F.Loc = Copy->getBeginLoc();
    std::string Head =
        ("'" + Api->Name + "' " + (Side.IsDestination ? "into" : "from") +
         " pageable host memory is staged and synchronous")
            .str();
    std::string Pin =
        (Platform.PinnedAllocators + ", or pin it with " + Platform.Register)
            .str();
    // The host touching the buffer before any wait is correct only because
    // the copy is synchronous: pinning alone would make it a race.
    std::optional<FindingNote> AccessNote;
    if (const TransferHazard *H = reliesOnSynchronousCopy(
            Function, Copy, Side.IsDestination, *R.Context)) {
      std::string Buffer = accessedBuffer(H->Access, *R.Context);
      SourceLocation At = accessLocation(H->Access);
      unsigned Line = R.Context->getSourceManager().getSpellingLineNumber(At);
      F.Message = Head + ", and " + accessWords(H->Access.Kind).Noun.str() +
                  " '" + Buffer + "' on line " + std::to_string(Line) +
                  " relies on that: to let it overlap, allocate the buffer "
                  "with " +
                  Pin + ", and wait for the copy with " +
                  waitFor(H->Transfer, *R.Context) +
                  " or an event before that access";
      AccessNote = FindingNote{
          At, "'" + Buffer + "' " + accessWords(H->Access.Kind).Verb.str() +
                  " here, with no wait for the copy before it"};
    } else {
      F.Message =
          Head + "; allocate the buffer with " + Pin + ", to let it overlap";
    }
    for (Origin O : P.Origins) {
      OriginNote Note = describeOrigin(O, MemoryKind::Pageable,
                                       R.Context->getSourceManager(), F.Loc);
      F.Notes.push_back({Note.Loc, Note.Message});
    }
    if (AccessNote)
      F.Notes.push_back(std::move(*AccessNote));
    if (KindFrom)
      F.Notes.push_back({KindFrom->getBeginLoc(),
                         "the copy's direction, parameter '" +
                             KindParam->getNameAsString() +
                             "', is the same at every call, as here"});
    report(std::move(F), *R.Context);
    return;
  }
}

CUDA_ASYNC_LINT_CHECK_FACTORY(PageableCopyCheck)

} // namespace cuda_async_lint
