//===- DefaultStreamCheck.cpp - cuda-async-default-stream -----------------===//

#include "DefaultStreamCheck.h"
#include "analysis/code/HostFunctions.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "api/ReleaseSite.h"
#include "api/StreamRef.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "cuda-async-lint/ExecutionSpace.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_async_lint {

DefaultStreamCheck::DefaultStreamCheck(DiagnosticSink &Sink)
    : Check("cuda-async-default-stream", Sink) {}

void DefaultStreamCheck::registerMatchers(MatchFinder &Finder) {
  auto InFunction = inHostFunction(functionDecl().bind("function"));
  Finder.addMatcher(callExpr(anyOf(apiCall(ApiKind::Copy, ApiMode::Async),
                                   apiCall(ApiKind::Memset, ApiMode::Async)),
                             InFunction)
                        .bind("op"),
                    this);
  Finder.addMatcher(cudaKernelCallExpr(InFunction).bind("op"), this);
  // cudaLaunchKernel, cuLaunchKernel and the cooperative launches; the
  // configuration calls of a <<<...>>> are not operations of their own.
  Finder.addMatcher(
      callExpr(apiCall(ApiKind::KernelLaunch), InFunction).bind("op"), this);
}

void DefaultStreamCheck::resetTranslationUnit() {
  Facts.clear();
  Syncs.reset();
}

void DefaultStreamCheck::run(const MatchFinder::MatchResult &R) {
  const auto *Function = R.Nodes.getNodeAs<FunctionDecl>("function");
  std::optional<AsyncOperation> Op =
      asyncOperation(R.Nodes.getNodeAs<Stmt>("op"));
  // A launch inside device code is dynamic parallelism: its default stream
  // is the launching block's, not the host's legacy stream.
  if (!Op || Function->isDependentContext() || !Function->getBody() ||
      isDeviceOnly(Function) ||
      streamRef(Op->Stream).K != StreamRef::Kind::Legacy)
    return;
  if (!Syncs)
    Syncs = SyncSummaries::forTranslationUnit(*R.Context);
  const FunctionFacts &Whole = Facts.get(Function, [&](const FunctionDecl *FD) {
    FunctionFacts F;
    F.PerThread = usesPerThreadDefaultStream(FD);
    F.HoldsBack = legacyWorkHoldingBack(FD, *R.Context, F.PerThread, *Syncs);
    return F;
  });
  auto Held = Whole.HoldsBack.find(Op->Call);
  if (Held == Whole.HoldsBack.end())
    return;

  const ApiSpec *Api = lookupApi(Op->Call);
  std::string What =
      Api ? "'" + Api->Name.str() + "'" : std::string("kernel launch");
  llvm::StringRef PerThread =
      platformApis(platformOf(Op->Call, *R.Context)).PerThreadStream;
  Finding F;
  F.Loc = Op->Call->getBeginLoc();
  F.Message =
      What +
      " on the legacy default stream waits for all earlier work on the "
      "device, and the work issued after it on created streams waits for it, "
      "so they cannot overlap; issue it on a created stream (or " +
      PerThread.str() + "), with an event where later work depends on it";
  F.Notes.push_back({Held->second->getBeginLoc(),
                     "work on a created stream issued here waits for it"});
  report(std::move(F), *R.Context);
}

CUDA_ASYNC_LINT_CHECK_FACTORY(DefaultStreamCheck)

} // namespace cuda_async_lint
