//===- PageableCopyCheck.cpp - cuda-async-pageable-copy -------------------===//

#include "PageableCopyCheck.h"
#include "analysis/HostFunctions.h"
#include "api/CudaApiCatalog.h"
#include "api/ReleaseSite.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "clang/ASTMatchers/ASTMatchers.h"

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
}

void PageableCopyCheck::run(const MatchFinder::MatchResult &R) {
  const auto *Copy = R.Nodes.getNodeAs<CallExpr>("copy");
  const auto *Function = R.Nodes.getNodeAs<FunctionDecl>("function");
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
    HostProvenance P = provenanceAt(Function, Copy, Side.Arg, *R.Context);
    if (!P.is(MemoryKind::Pageable))
      continue;
    const PlatformApis &Platform = platformApis(platformOf(Api, *R.Context));
    Finding F;
    F.Loc = Copy->getBeginLoc();
    F.Message =
        ("'" + Api->Name + "' " + (Side.IsDestination ? "into" : "from") +
         " pageable host memory is staged and synchronous; allocate "
         "the buffer with " +
         Platform.PinnedAllocators + ", or pin it with " + Platform.Register +
         ", to let it overlap")
            .str();
    for (Origin O : P.Origins) {
      OriginNote Note = describeOrigin(O, MemoryKind::Pageable,
                                       R.Context->getSourceManager(), F.Loc);
      F.Notes.push_back({Note.Loc, Note.Message});
    }
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
