//===- DefaultStreamCheck.cpp - cuda-async-default-stream -----------------===//

#include "DefaultStreamCheck.h"
#include "analysis/Loops.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "api/ReleaseSite.h"
#include "api/StreamRef.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_async_lint {

DefaultStreamCheck::DefaultStreamCheck(DiagnosticSink &Sink)
    : Check("cuda-async-default-stream", Sink) {}

void DefaultStreamCheck::registerMatchers(MatchFinder &Finder) {
  auto InFunction = forFunction(functionDecl().bind("function"));
  Finder.addMatcher(callExpr(anyOf(apiCall(ApiKind::Copy, ApiMode::Async),
                                   apiCall(ApiKind::Memset, ApiMode::Async)),
                             InFunction)
                        .bind("op"),
                    this);
  Finder.addMatcher(cudaKernelCallExpr(InFunction).bind("op"), this);
  // cudaLaunchKernel, cuLaunchKernel and the cooperative launches; the
  // configuration calls of a <<<...>>> are not operations of their own.
  Finder.addMatcher(callExpr(apiCall(ApiKind::KernelLaunch), InFunction)
                        .bind("op"),
                    this);
}

namespace {

/// The async operations of a statement, outside lambdas.
class AsyncOpFinder : public RecursiveASTVisitor<AsyncOpFinder> {
public:
  std::vector<AsyncOperation> Ops;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitStmt(Stmt *S) {
    if (std::optional<AsyncOperation> Op = asyncOperation(S))
      Ops.push_back(*Op);
    return true;
  }
};

bool isCreatedStream(const Expr *Stream) {
  StreamRef S = streamRef(Stream);
  return S.K == StreamRef::Kind::Named || S.K == StreamRef::Kind::ArrayElement;
}

} // namespace

DefaultStreamCheck::FunctionFacts
DefaultStreamCheck::factsOf(const FunctionDecl *FD) {
  FunctionFacts Facts;
  Facts.PerThread = usesPerThreadDefaultStream(FD);
  AsyncOpFinder All;
  All.TraverseStmt(FD->getBody());
  for (const AsyncOperation &Op : All.Ops)
    if (isCreatedStream(Op.Stream)) {
      Facts.OnCreatedStream = Op.Call;
      break;
    }
  return Facts;
}

void DefaultStreamCheck::run(const MatchFinder::MatchResult &R) {
  const auto *Function = R.Nodes.getNodeAs<FunctionDecl>("function");
  std::optional<AsyncOperation> Op =
      asyncOperation(R.Nodes.getNodeAs<Stmt>("op"));
  if (!Op || Function->isDependentContext() || !Function->getBody())
    return;
  // cudaStreamLegacy ((cudaStream_t)0x1) is the legacy stream in every
  // mode; 0, NULL or an omitted stream is the per-thread stream when the
  // translation unit was compiled with --default-stream per-thread.
  StreamRef Stream = streamRef(Op->Stream);
  if (Stream.K != StreamRef::Kind::Legacy)
    return;
  const FunctionFacts &Whole = Facts.get(Function, factsOf);
  bool Legacy = isExplicitLegacyStream(Op->Stream) || !Whole.PerThread;

  const ApiSpec *Api = lookupApi(Op->Call);
  std::string What = Api ? "'" + Api->Name.str() + "'"
                         : std::string("kernel launch");
  std::string On =
      Legacy ? "on the legacy default stream" : "on the default stream";
  std::string Serializes =
      Legacy ? "waits for all earlier work on the device and holds back all "
               "later work, so nothing overlaps"
             : "queues every iteration's work on one stream, so nothing "
               "overlaps";
  std::string Fix = Legacy ? "create streams and pass them (or use "
                             "cudaStreamPerThread)"
                           : "create streams and pass them";

  Finding F;
  F.Loc = Op->Call->getBeginLoc();
  const Stmt *Loop = enclosingLoop(Op->Call, *R.Context);
  AsyncOpFinder InLoop;
  if (Loop)
    InLoop.TraverseStmt(const_cast<Stmt *>(loopBody(Loop)));
  const AsyncOperation *LoopTransfer = nullptr;
  for (const AsyncOperation &Other : InLoop.Ops)
    if (Other.IsTransfer && !LoopTransfer)
      LoopTransfer = &Other;

  if (Loop && Op->IsTransfer) {
    F.Message = What + " " + On + " inside a loop " + Serializes + "; " + Fix;
  } else if (Loop && LoopTransfer) {
    F.Message = What + " " + On +
                " inside a loop that issues asynchronous transfers " +
                Serializes + "; " + Fix;
    F.Notes.push_back({LoopTransfer->Call->getBeginLoc(),
                       "the loop issues asynchronous transfers here"});
  } else if (Legacy) {
    // Beside created streams, the legacy stream synchronizes with them all.
    if (!Whole.OnCreatedStream)
      return;
    F.Message = What + " " + On +
                " in a function that also uses created streams synchronizes "
                "with all of them and serializes the pipeline; pass a created "
                "stream (or cudaStreamPerThread)";
    F.Notes.push_back({Whole.OnCreatedStream->getBeginLoc(),
                       "work is issued on a created stream here"});
  } else {
    return;
  }
  report(std::move(F), *R.Context);
}

CUDA_ASYNC_LINT_CHECK_FACTORY(DefaultStreamCheck)

} // namespace cuda_async_lint
