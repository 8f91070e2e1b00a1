//===- UnsynchronizedAccessCheck.cpp - cuda-async-unsynchronized-access ---===//

#include "UnsynchronizedAccessCheck.h"
#include "analysis/code/HostFunctions.h"
#include "analysis/pending/HazardText.h"
#include "analysis/pending/MemberEffects.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "api/HostCommunication.h"
#include "api/ReleaseSite.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_async_lint {

UnsynchronizedAccessCheck::UnsynchronizedAccessCheck(DiagnosticSink &Sink)
    : ProvenanceCheck("cuda-async-unsynchronized-access", Sink) {}

void UnsynchronizedAccessCheck::registerMatchers(MatchFinder &Finder) {
  // Only functions that issue async copies or launch kernels are analysed,
  // or call functions of the program that leave one in flight: member
  // functions on their object's members, any function on what its
  // parameters point to.
  Finder.addMatcher(callExpr(apiCall(ApiKind::Copy, ApiMode::Async),
                             inHostFunction(functionDecl().bind("function"))),
                    this);
  // Launches of the user's code: a library's own (Thrust's, CUB's, inside
  // their headers' templates) are its business, and many.
  Finder.addMatcher(
      cudaKernelCallExpr(unless(isExpansionInSystemHeader()),
                         inHostFunction(functionDecl().bind("function")))
          .bind("launch"),
      this);
  Finder.addMatcher(
      cxxMemberCallExpr(
          callee(cxxMethodDecl(unless(isExpansionInSystemHeader()))
                     .bind("method")),
          inHostFunction(functionDecl().bind("function"))),
      this);
  Finder.addMatcher(
      callExpr(
          unless(cxxMemberCallExpr()),
          callee(
              functionDecl(unless(isExpansionInSystemHeader())).bind("callee")),
          inHostFunction(functionDecl().bind("function"))),
      this);
}

bool UnsynchronizedAccessCheck::leavesTransfers(const CXXMethodDecl *Method,
                                                ASTContext &Ctx) {
  const MemberEffects *Effects = Syncs->effects(Method, provenance(Ctx));
  return (Effects && !Effects->Transfers.empty()) ||
         !Syncs->parameterTransfers(Method, provenance(Ctx)).empty();
}

void UnsynchronizedAccessCheck::resetTranslationUnit() {
  ProvenanceCheck::resetTranslationUnit();
  Syncs.reset();
  Analysed.clear();
}

void UnsynchronizedAccessCheck::run(const MatchFinder::MatchResult &R) {
  const auto *Function = R.Nodes.getNodeAs<FunctionDecl>("function");
  if (Function->isDependentContext() || Analysed.count(Function))
    return;
  if (!Syncs)
    Syncs = SyncSummaries::forTranslationUnit(*R.Context);
  if (const auto *Method = R.Nodes.getNodeAs<CXXMethodDecl>("method"))
    if (!leavesTransfers(Method, *R.Context))
      return;
  if (const auto *Callee = R.Nodes.getNodeAs<FunctionDecl>("callee"))
    if (Syncs->parameterTransfers(Callee, provenance(*R.Context)).empty())
      return;
  Analysed.insert(Function);
  std::set<std::pair<const Stmt *, const ValueDecl *>> Reported;
  for (const TransferHazard &H : findTransferHazards(
           Function, *R.Context, provenance(*R.Context), *Syncs))
    // One finding per access expression and buffer.
    if (Reported.insert({H.Access.At, H.Access.Buffer.Base}).second)
      report(H, Function, *R.Context);
}

/// "kernel 'fill'", or "'cudaMemcpyAsync'".
static std::string workName(const CallExpr *Call) {
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call)) {
    const FunctionDecl *Kernel = Launch->getDirectCallee();
    return "kernel '" + (Kernel ? Kernel->getNameAsString() : "?") + "'";
  }
  const ApiSpec *Api = lookupApi(Call);
  return "'" + (Api ? Api->Name.str() : "an asynchronous copy") + "'";
}

/// "stream 's'" for a stream the code names, "the legacy default stream".
static std::string onStream(const StreamRef &S, const Expr *Arg,
                            const ASTContext &Ctx) {
  std::string Spelled = streamSpelling(S, Arg, Ctx);
  return S.K == StreamRef::Kind::Named || S.K == StreamRef::Kind::ArrayElement
             ? "stream " + Spelled
             : Spelled;
}

void UnsynchronizedAccessCheck::report(const TransferHazard &H,
                                       const FunctionDecl *Function,
                                       ASTContext &Ctx) {
  const HostAccess &A = H.Access;
  const PendingTransfer &P = H.Transfer;
  if (P.Request) {
    reportRequest(H, Function, Ctx);
    return;
  }
  std::string Buffer = accessedBuffer(A, Ctx);
  std::string Verb = accessWords(A.Kind).Verb.str();
  std::string OnStream = onStream(P.Stream, P.StreamArg, Ctx);
  std::string Wait = waitFor(P, Ctx);
  Finding F;
  F.Function = Function;
  F.Loc = accessLocation(A);
  // An access inside a member function: reported at the call, which is
  // where the caller must wait.
  if (A.Within)
    Verb += " by the call '" + sourceText(A.Spelled, Ctx) + "'";
  else if (const HostCommunicationSpec *Mpi =
               lookupHostCommunication(dyn_cast<CallExpr>(A.At)))
    Verb += " by '" + Mpi->Name.str() + "'";
  // A kernel is async work too (KernelWrites.h): named, with what it does.
  bool Kernel = isa<CUDAKernelCallExpr>(P.Op);
  const char *Issued = Kernel ? "the kernel is launched here"
                              : "the asynchronous copy is issued here";
  // The access is itself work on another stream: the streams race.
  const auto *AccessCall = dyn_cast_or_null<CallExpr>(A.At);
  if (std::optional<AsyncOperation> Other =
          AccessCall ? asyncOperation(AccessCall) : std::nullopt) {
    const Expr *OtherArg = writtenStream(*Other);
    std::string OtherOn = onStream(streamRef(OtherArg), OtherArg, Ctx);
    F.Message = "'" + Buffer + "' " + accessWords(A.Kind).Verb.str() + " by " +
                workName(AccessCall) + " on " + OtherOn + " while " +
                workName(P.Op) + ", which " +
                (P.DeviceWrites ? "writes" : "reads") +
                " it, may still be running on " + OnStream + "; make " +
                OtherOn + " wait for it (cudaEventRecord after it, " +
                "cudaStreamWaitEvent) or wait with " + Wait + " first";
    F.Notes.push_back({P.Op->getBeginLoc(), Issued});
    if (P.StreamArg)
      F.Notes.push_back(
          {P.StreamArg->getBeginLoc(),
           "on " + OnStream + ", not ordered before " + workName(AccessCall)});
    Check::report(std::move(F), Ctx);
    return;
  }
  F.Message = "'" + Buffer + "' " + Verb + " while " + workName(P.Op) +
              (Kernel ? std::string(", which ") +
                            (P.DeviceWrites ? "writes" : "reads") +
                            " it, may still be running on "
                      : std::string(" ") + (P.DeviceWrites ? "into" : "from") +
                            " it may still be in flight on ") +
              OnStream + "; wait for it first with " + Wait + " or an event";
  F.Notes.push_back({P.Op->getBeginLoc(), Issued});
  if (A.Within)
    F.Notes.push_back(
        {A.Within->getBeginLoc(),
         "'" + Buffer + "' " + accessWords(A.Kind).Verb.str() + " here"});
  // A buffer handed to a function of this unit: where its body touches it,
  // the line a run's race detector shows.
  else if (A.InCallee)
    F.Notes.push_back({A.InCallee->getBeginLoc(),
                       "'" + sourceText(A.InCallee, Ctx) + "' " +
                           accessWords(A.Kind).Verb.str() + " here"});
  if (P.StreamArg)
    F.Notes.push_back(
        {P.StreamArg->getBeginLoc(),
         "on " + OnStream + ", not synchronized before the access"});
  Check::report(std::move(F), Ctx);
}

/// A nonblocking MPI call's buffer touched before its request completes.
void UnsynchronizedAccessCheck::reportRequest(const TransferHazard &H,
                                              const FunctionDecl *Function,
                                              ASTContext &Ctx) {
  const HostAccess &A = H.Access;
  const PendingTransfer &P = H.Transfer;
  const HostCommunicationSpec *Mpi = lookupHostCommunication(P.Op);
  std::string Call = "'" + (Mpi ? Mpi->Name.str() : "MPI") + "'";
  std::string Request =
      P.StreamArg ? sourceText(P.StreamArg, Ctx) : std::string("request");
  std::string By;
  const auto *AccessCall = dyn_cast_or_null<CallExpr>(A.At);
  if (AccessCall && isa<CUDAKernelCallExpr>(AccessCall))
    By = " by " + workName(AccessCall);
  else if (const HostCommunicationSpec *Other =
               lookupHostCommunication(AccessCall))
    By = " by '" + Other->Name.str() + "'";
  Finding F;
  F.Function = Function;
  F.Loc = accessLocation(A);
  F.Message = "'" + accessedBuffer(A, Ctx) + "' " +
              accessWords(A.Kind).Verb.str() + By + " while " + Call +
              ", which " + (P.DeviceWrites ? "writes" : "reads") +
              " it, may still be in progress; complete its request first "
              "with MPI_Wait(" +
              Request + ")";
  F.Notes.push_back({P.Op->getBeginLoc(), "the nonblocking call is made here"});
  Check::report(std::move(F), Ctx);
}

CUDA_ASYNC_LINT_CHECK_FACTORY(UnsynchronizedAccessCheck)

} // namespace cuda_async_lint
