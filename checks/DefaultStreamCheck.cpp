//===- DefaultStreamCheck.cpp - cuda-async-default-stream -----------------===//

#include "DefaultStreamCheck.h"
#include "analysis/code/HostFunctions.h"
#include "analysis/serialization/CallsThatIssue.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "api/GpuLibrary.h"
#include "api/ReleaseSite.h"
#include "api/StreamRef.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "cuda-async-lint/ExecutionSpace.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_async_lint {

namespace {
/// The name a call is written with: 'cublasSaxpy', not the '_v2' function
/// cuBLAS's macro makes of it.
std::string spelledCallee(const CallExpr *Call, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // Inside a macro's argument too: CHECK(cublasSaxpy(...)).
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Callee);
  SourceLocation At =
      SM.getFileLoc(Ref ? Ref->getLocation() : Callee->getExprLoc());
  Token Tok;
  if (!Lexer::getRawToken(At, Tok, SM, Ctx.getLangOpts()) &&
      Tok.is(tok::raw_identifier))
    return Tok.getRawIdentifier().str();
  const FunctionDecl *FD = Call->getDirectCallee();
  return FD ? FD->getNameAsString() : std::string("the call");
}
} // namespace

DefaultStreamCheck::DefaultStreamCheck(DiagnosticSink &Sink)
    : Check("cuda-async-default-stream", Sink) {}

void DefaultStreamCheck::registerMatchers(MatchFinder &Finder) {
  // Every call: async copies and memsets, <<<...>>> and API launches, graph
  // launches and GPU libraries' work (run() keeps those on the legacy
  // stream; a <<<...>>>'s configuration call is not an operation).
  Finder.addMatcher(
      callExpr(inHostFunction(functionDecl().bind("function"))).bind("op"),
      this);
}

void DefaultStreamCheck::resetTranslationUnit() {
  Facts.clear();
  Callees.reset();
  Syncs.reset();
  Creations.reset();
}

void DefaultStreamCheck::run(const MatchFinder::MatchResult &R) {
  const auto *Function = R.Nodes.getNodeAs<FunctionDecl>("function");
  const auto *Call = R.Nodes.getNodeAs<CallExpr>("op");
  // A launch inside device code is dynamic parallelism: its default stream
  // is the launching block's, not the host's legacy stream.
  if (Function->isDependentContext() || !Function->getBody() ||
      isDeviceOnly(Function))
    return;
  // What may be legacy work (LegacyStreamWork.h decides): an async
  // operation on the legacy stream, or a library's work, whose stream may
  // be the one its handle is bound to.
  // Or a call of a function of the unit, which may return with legacy
  // work in flight.
  auto CalleesOfUnit = [&]() -> LegacyCallees & {
    if (!Syncs)
      Syncs = SyncSummaries::forTranslationUnit(*R.Context);
    if (!Creations)
      Creations.emplace(*R.Context);
    if (!Callees)
      Callees.emplace(*R.Context, *Syncs, *Creations);
    return *Callees;
  };
  const FunctionDecl *Callee = Call->getDirectCallee();
  const CalleeLegacyWork *Work = nullptr;
  if (std::optional<AsyncOperation> Op = asyncOperation(Call)) {
    if (streamRef(Op->Stream).K != StreamRef::Kind::Legacy)
      return;
  } else if (!libraryWorkStream(Call, *R.Context) &&
             !libraryWorkHandle(Call, *R.Context)) {
    if (!Callee || lookupApi(Call) || !Callee->getDefinition() ||
        !Callee->getDefinition()->hasBody())
      return;
    Work = CalleesOfUnit().of(Callee);
    if (!Work || !Work->LeftInFlight) {
      // Or one that issues work on the stream its caller passes, given the
      // legacy stream here (LegacyStreamWork.h): the call is that work.
      const Expr *Given =
          streamArgumentOf(Call, workLeftInFlight(Call, *R.Context));
      if (!Given || streamRef(Given).K != StreamRef::Kind::Legacy)
        return;
      Work = nullptr;
    }
  }
  CalleesOfUnit();
  const FunctionFacts &Whole = Facts.get(Function, [&](const FunctionDecl *FD) {
    FunctionFacts F;
    F.PerThread = usesPerThreadDefaultStream(FD);
    F.HoldsBack = legacyWorkHoldingBack(FD, *R.Context, F.PerThread, *Syncs,
                                        *Creations, *Callees);
    return F;
  });
  auto Held = Whole.HoldsBack.find(Call);
  if (Held == Whole.HoldsBack.end())
    return;

  const ApiSpec *Api = lookupApi(Call);
  llvm::StringRef PerThread =
      platformApis(platformOf(Call, *R.Context)).PerThreadStream;
  Finding F;
  F.Function = Function;
  F.Loc = Call->getBeginLoc();
  // What holds back, then the cost and the fix, one text for both.
  std::string Cost = " on created streams waits for it, so they cannot "
                     "overlap; issue ";
  std::string Fix = " on a created stream (or " + PerThread.str() +
                    "), with an event where later work depends on it";
  if (Work && Work->LeftInFlight) {
    F.Message = "'" + spelledCallee(Call, *R.Context) +
                "' returns with work on the legacy default stream still in "
                "flight, and the work issued after it" +
                Cost + "that work" + Fix;
    F.Notes.push_back({Work->LeftInFlight->getBeginLoc(),
                       "work on the legacy default stream issued here"});
  } else {
    std::string What = Api ? "'" + Api->Name.str() + "'"
                       : isa<CUDAKernelCallExpr>(Call)
                           ? std::string("kernel launch")
                           : "'" + spelledCallee(Call, *R.Context) + "'";
    F.Message = What +
                " on the legacy default stream waits for all earlier work on "
                "the device, and the work issued after it" +
                Cost + "it" + Fix;
  }
  F.Notes.push_back({Held->second->getBeginLoc(),
                     "work on a created stream issued here waits for it"});
  // Held back inside a function called there: where.
  if (const CalleeLegacyWork *Inner =
          isa<CUDAKernelCallExpr>(Held->second) || lookupApi(Held->second)
              ? nullptr
              : Callees->of(Held->second->getDirectCallee());
      Inner && Inner->FirstHeldBack)
    F.Notes.push_back({Inner->FirstHeldBack->getBeginLoc(),
                       "the work on a created stream it issues first"});
  report(std::move(F), *R.Context);
}

CUDA_ASYNC_LINT_CHECK_FACTORY(DefaultStreamCheck)

} // namespace cuda_async_lint
