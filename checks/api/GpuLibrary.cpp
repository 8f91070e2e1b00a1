//===- GpuLibrary.cpp - GpuLibraryApis.def, indexed -----------------------===//

#include "GpuLibrary.h"
#include "StreamRef.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

struct HandleLibrary {
  llvm::StringRef Prefix, HandleType, Setter;
};

constexpr HandleLibrary HandleLibraries[] = {
#define GPU_LIBRARY_HANDLE(Library, HandleType, Setter)                        \
  {#Library, #HandleType, #Setter},
#define GPU_LIBRARY_STREAM_CALL(Prefix)
#define GPU_LIBRARY_POLICY_CALL(Namespace)
#include "GpuLibraryApis.def"
};

constexpr llvm::StringRef StreamCallPrefixes[] = {
#define GPU_LIBRARY_HANDLE(Library, HandleType, Setter)
#define GPU_LIBRARY_STREAM_CALL(Prefix) #Prefix,
#define GPU_LIBRARY_POLICY_CALL(Namespace)
#include "GpuLibraryApis.def"
};

constexpr llvm::StringRef PolicyCallNamespaces[] = {
#define GPU_LIBRARY_HANDLE(Library, HandleType, Setter)
#define GPU_LIBRARY_STREAM_CALL(Prefix)
#define GPU_LIBRARY_POLICY_CALL(Namespace) #Namespace,
#include "GpuLibraryApis.def"
};

/// The name without the _v2 (cublas_v2.h's renaming) or _64 (64-bit
/// index variants) suffixes.
llvm::StringRef baseName(llvm::StringRef Name) {
  Name.consume_back("_64");
  Name.consume_back("_v2");
  return Name;
}

bool inSystemHeader(const FunctionDecl *FD) {
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation()));
}

/// The typedef name \p T is spelled with, if any.
llvm::StringRef typedefName(QualType T) {
  if (const auto *TT = T->getAs<TypedefType>())
    return TT->getDecl()->getName();
  return "";
}

/// The outermost named namespace \p D is declared in ('thrust' for
/// 'thrust::THRUST_200800_NS::sort'); empty if none.
llvm::StringRef outermostNamespace(const Decl *D) {
  llvm::StringRef Name;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && !NS->isInline() && NS->getIdentifier())
      Name = NS->getName();
  return Name;
}

/// 'policy.on(stream)', written as the execution policy argument \p Arg.
const CXXMemberCallExpr *streamAttachment(const Expr *Arg) {
  const Expr *E = Arg->IgnoreImplicit();
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
      Copy && Copy->getNumArgs() == 1)
    E = Copy->getArg(0)->IgnoreImplicit();
  const auto *On = dyn_cast<CXXMemberCallExpr>(E);
  const CXXMethodDecl *MD = On ? On->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || MD->getName() != "on" ||
      On->getNumArgs() != 1 || !isStreamType(On->getArg(0)->getType()))
    return nullptr;
  return On;
}

struct PolicyStream {
  const Expr *Stream;
  bool Waits;
};

/// The stream of a policy-taking algorithm's call (GPU_LIBRARY_POLICY_CALL),
/// and whether the call returns only once that stream's work is done.
std::optional<PolicyStream> policyStream(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || Call->getNumArgs() == 0 || isa<CXXMemberCallExpr>(Call) ||
      !inSystemHeader(FD) ||
      !llvm::is_contained(PolicyCallNamespaces, outermostNamespace(FD)))
    return std::nullopt;
  const CXXMemberCallExpr *On = streamAttachment(Call->getArg(0));
  if (!On)
    return std::nullopt;
  // execute_on_stream_nosync(_base): the algorithm may return before its
  // work is done, unless it hands back a value the work computes
  // (thrust::reduce, thrust::count).
  bool NoSync = llvm::StringRef(On->getType().getCanonicalType().getAsString())
                    .contains("nosync");
  bool Waits = !NoSync || FD->getReturnType()->isArithmeticType();
  return PolicyStream{handleObject(On->getArg(0)), Waits};
}

} // namespace

std::optional<StreamBinding> streamBinding(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || Call->getNumArgs() < 2)
    return std::nullopt;
  llvm::StringRef Name = baseName(FD->getName());
  for (const HandleLibrary &L : HandleLibraries)
    if (Name == L.Setter)
      return StreamBinding{Call->getArg(0), Call->getArg(1)};
  return std::nullopt;
}

bool recordBinding(const CallExpr *Call, HandleStreams &Bound) {
  std::optional<StreamBinding> B = streamBinding(Call);
  if (!B)
    return false;
  if (const ValueDecl *Handle = handleDecl(B->Handle))
    Bound[Handle] = B->Stream;
  return true;
}

const ValueDecl *handleDecl(const Expr *Handle) {
  if (!Handle)
    return nullptr;
  Handle = Handle->IgnoreParenImpCasts();
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Handle))
    Handle = Sub->getBase()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Handle))
    return DRE->getDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(Handle))
    return ME->getMemberDecl();
  return nullptr;
}

const Expr *libraryWorkHandle(const CallExpr *Call, const ASTContext &Ctx) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || FD->getNumParams() == 0 ||
      streamBinding(Call))
    return nullptr;
  llvm::StringRef Name = FD->getName();
  for (const HandleLibrary &L : HandleLibraries) {
    if (!Name.starts_with(L.Prefix))
      continue;
    llvm::StringRef Rest = Name.drop_front(L.Prefix.size());
    // Configuration, not work: cublasSetMathMode, cublasGetStream, ...
    if (Rest.starts_with("Set") || Rest.starts_with("Get") ||
        Rest.starts_with("Create") || Rest.starts_with("Destroy") ||
        Rest.starts_with("set_") || Rest.starts_with("get_") ||
        Rest.starts_with("create") || Rest.starts_with("destroy"))
      return nullptr;
    for (unsigned I = 0; I < FD->getNumParams() && I < Call->getNumArgs(); ++I)
      if (typedefName(FD->getParamDecl(I)->getType()) == L.HandleType)
        return inSystemHeader(FD) ? Call->getArg(I) : nullptr;
  }
  return nullptr;
}

const Expr *libraryWorkStream(const CallExpr *Call, const ASTContext &Ctx) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getDeclName().isIdentifier())
    return nullptr;
  if (std::optional<PolicyStream> Policy = policyStream(Call))
    return Policy->Stream;
  const Expr *Stream = nullptr;
  for (const Expr *Arg : Call->arguments())
    if (isStreamType(Arg->getType())) {
      if (Stream)
        return nullptr; // Which one it works on is not known.
      Stream = Arg;
    }
  if (!Stream || !inSystemHeader(FD))
    return nullptr;
  std::string Name = FD->getQualifiedNameAsString();
  for (llvm::StringRef Prefix : StreamCallPrefixes)
    if (llvm::StringRef(Name).starts_with(Prefix))
      return handleObject(Stream);
  return nullptr;
}

const Expr *libraryWaitStream(const CallExpr *Call) {
  std::optional<PolicyStream> Policy = policyStream(Call);
  return Policy && Policy->Waits ? Policy->Stream : nullptr;
}

} // namespace cuda_async_lint
