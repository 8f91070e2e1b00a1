//===- AsyncOperation.cpp -------------------------------------------------===//

#include "AsyncOperation.h"
#include "CudaApiCatalog.h"
#include "StreamRef.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

const Expr *writtenStream(const AsyncOperation &Op) {
  if (!Op.Stream || isa<CXXDefaultArgExpr>(Op.Stream))
    return nullptr;
  return Op.Stream->IgnoreParenImpCasts();
}

std::optional<AsyncOperation> asyncOperation(const Stmt *S) {
  // <<<grid, block, shmem, stream>>>: the stream is an argument of the
  // launch configuration call clang attaches to the launch.
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(S)) {
    const CallExpr *Config = Launch->getConfig();
    const ApiSpec *Api = lookupApi(Config);
    return AsyncOperation{Launch, false,
                          Api ? Api->arg(Config, ArgRole::Stream) : nullptr};
  }
  const auto *Call = dyn_cast<CallExpr>(S);
  const ApiSpec *Api = lookupApi(Call);
  if (!Api)
    return std::nullopt;
  bool Transfer = Api->Mode == ApiMode::Async &&
                  (Api->Kind == ApiKind::Copy || Api->Kind == ApiKind::Memset);
  // The configuration calls are parts of a <<<...>>> launch, seen above.
  bool Launch = Api->Kind == ApiKind::KernelLaunch &&
                Api->argIndex(ArgRole::Stream) && !Api->ConfiguresLaunch;
  if (!Transfer && !Launch)
    return std::nullopt;
  return AsyncOperation{Call, Transfer, Api->arg(Call, ArgRole::Stream)};
}

bool isOpaqueFunction(const FunctionDecl *FD, const ASTContext &Ctx) {
  if (FD->hasBody() || lookupApi(FD))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  return !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation()));
}

std::optional<AsyncOperation> streamWork(const Stmt *S, const ASTContext &Ctx,
                                         const HandleStreams *Bound) {
  if (std::optional<AsyncOperation> Op = asyncOperation(S))
    return Op;
  const auto *Call = dyn_cast<CallExpr>(S);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD)
    return std::nullopt;
  if (const Expr *Stream = libraryWorkStream(Call, Ctx))
    return AsyncOperation{Call, false, Stream};
  if (Bound)
    if (const ValueDecl *Handle = handleDecl(libraryWorkHandle(Call, Ctx)))
      if (auto It = Bound->find(Handle); It != Bound->end())
        return AsyncOperation{Call, false, It->second};
  if (!isOpaqueFunction(FD, Ctx))
    return std::nullopt;
  const Expr *Stream = nullptr;
  for (const Expr *Arg : Call->arguments())
    if (isStreamType(Arg->getType())) {
      if (Stream)
        return std::nullopt; // Which one it works on is not known.
      Stream = Arg;
    }
  if (!Stream)
    return std::nullopt;
  return AsyncOperation{Call, false, handleObject(Stream)};
}

} // namespace cuda_async_lint
