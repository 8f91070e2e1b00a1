//===- StreamRef.cpp ------------------------------------------------------===//

#include "StreamRef.h"
#include "CudaApiCatalog.h"
#include "GpuPlatform.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace cuda_async_lint {

namespace {
/// A pointer to some runtime's opaque record \p Record names.
bool isHandleType(QualType T, llvm::StringRef PlatformApis::*Record) {
  const auto *Ptr = T.getCanonicalType()->getAs<PointerType>();
  const auto *RD = Ptr ? Ptr->getPointeeType()->getAsRecordDecl() : nullptr;
  return RD && llvm::any_of(allPlatforms(), [&](const PlatformApis &P) {
           return RD->getName() == P.*Record;
         });
}
} // namespace

bool isStreamType(QualType T) {
  return isHandleType(T, &PlatformApis::StreamRecord);
}

bool isEventType(QualType T) {
  return isHandleType(T, &PlatformApis::EventRecord);
}

namespace {
/// A stream or event handle: what a wrapper class converts to.
bool isStreamOrEventType(QualType T) {
  return isStreamType(T) || isEventType(T);
}
} // namespace

bool isHandleWrapperType(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return false;
  for (const NamedDecl *D : RD->getVisibleConversionFunctions()) {
    const auto *Conv =
        dyn_cast<CXXConversionDecl>(D->getUnderlyingDecl()->getAsFunction());
    if (Conv && isStreamOrEventType(Conv->getConversionType()))
      return true;
  }
  return false;
}

const Expr *handleObject(const Expr *E) {
  if (!E)
    return E;
  const auto *Call = dyn_cast<CXXMemberCallExpr>(E->IgnoreParenImpCasts());
  const auto *Conv =
      Call ? dyn_cast_or_null<CXXConversionDecl>(Call->getMethodDecl())
           : nullptr;
  if (!Conv || !isStreamOrEventType(Conv->getConversionType()))
    return E;
  return Call->getImplicitObjectArgument()->IgnoreParenImpCasts();
}

StreamRef streamRef(const Expr *E) {
  if (!E)
    return StreamRef::legacy();
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    E = Default->getExpr();
  E = handleObject(E)->IgnoreParenImpCasts();
  // cudaStreamLegacy and cudaStreamPerThread are ((cudaStream_t)0x1) and
  // ((cudaStream_t)0x2), hipStreamPerThread is ((hipStream_t)2) too; 0, NULL
  // and nullptr are the legacy (HIP: null) stream.
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return StreamRef::legacy();
  const Expr *Stripped = E->IgnoreParenCasts();
  if (const auto *Int = dyn_cast<IntegerLiteral>(Stripped)) {
    uint64_t V = Int->getValue().getZExtValue();
    if (V == 0 || V == 1)
      return StreamRef::legacy();
    if (V == 2)
      return {StreamRef::Kind::PerThread, nullptr};
    return StreamRef::unknown();
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (!VD->getType()->isReferenceType())
        return {StreamRef::Kind::Named, VD};
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl())) {
      // 'plan[i].stream': a stream per element of an array of structs is
      // an array of streams.
      if (isa<ArraySubscriptExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return {StreamRef::Kind::ArrayElement, FD};
      return {StreamRef::Kind::Named, FD};
    }
  // The variable or field an array of streams is named by: 'streams[i]',
  // 'plan.streams[i]'.
  auto ElementOf = [](const Expr *Base) -> const ValueDecl * {
    Base = Base->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Base))
      return dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *ME = dyn_cast<MemberExpr>(Base))
      return dyn_cast<FieldDecl>(ME->getMemberDecl());
    return nullptr;
  };
  // An element of a multi-dimensional array ('done[iter % 2][dev]') is an
  // element of the whole array.
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
    while (const auto *Row = dyn_cast<ArraySubscriptExpr>(Base)) {
      if (!Row->getType()->isConstantArrayType())
        break;
      Base = Row->getBase()->IgnoreParenImpCasts();
    }
    if (const ValueDecl *D = ElementOf(Base))
      return {StreamRef::Kind::ArrayElement, D};
  }
  // 'streams[i]' of a std::vector or std::array of streams (or events, or
  // their wrappers): an element of a container, as of an array (not of a
  // reference to one).
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 &&
        (isStreamOrEventType(Op->getType().getNonReferenceType()) ||
         isHandleWrapperType(Op->getType())))
      if (const ValueDecl *D = ElementOf(Op->getArg(0));
          D && !(isa<VarDecl>(D) && D->getType()->isReferenceType()))
        return {StreamRef::Kind::ArrayElement, D};
  return StreamRef::unknown();
}

bool isExplicitLegacyStream(const Expr *Stream) {
  const auto *Literal =
      Stream ? dyn_cast<IntegerLiteral>(Stream->IgnoreParenCasts()) : nullptr;
  return Literal && Literal->getValue() == 1;
}

bool isPerThreadStream(const StreamRef &S, const Expr *Arg, bool PerThread) {
  return S.K == StreamRef::Kind::PerThread ||
         (PerThread && S.K == StreamRef::Kind::Legacy &&
          !isExplicitLegacyStream(Arg));
}

namespace {
class PerThreadFinder : public RecursiveASTVisitor<PerThreadFinder> {
public:
  bool Found = false;
  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *FD = Call->getDirectCallee())
      if (lookupApi(FD) && FD->getIdentifier() &&
          isPerThreadSpelling(FD->getName()))
        Found = true;
    return !Found;
  }
};
} // namespace

bool usesPerThreadDefaultStream(const FunctionDecl *FD) {
  // clang's -fgpu-default-stream=per-thread, which hipcc passes through
  // (ROCm headers before 5.5 have no _spt variants to show it).
  if (FD && FD->getASTContext().getLangOpts().HIP &&
      FD->getASTContext().getLangOpts().GPUDefaultStream ==
          LangOptions::GPUDefaultStreamKind::PerThread)
    return true;
  PerThreadFinder Finder;
  if (FD && FD->getBody())
    Finder.TraverseStmt(FD->getBody());
  if (Finder.Found || !FD)
    return Finder.Found;
  // A function that makes no runtime call (only <<<...>>> launches) is
  // compiled as its unit is: the headers declare cudaMemcpyAsync as
  // cudaMemcpyAsync_ptsz under --default-stream per-thread (and
  // CUDA_API_PER_THREAD_DEFAULT_STREAM). The device runtime declares a
  // __device__ one in every mode.
  ASTContext &Ctx = FD->getASTContext();
  IdentifierInfo *Renamed = &Ctx.Idents.get("cudaMemcpyAsync_ptsz");
  return llvm::any_of(
      Ctx.getTranslationUnitDecl()->lookup(Renamed), [](const NamedDecl *D) {
        const auto *Declared = dyn_cast<FunctionDecl>(D);
        return Declared && (!Declared->hasAttr<CUDADeviceAttr>() ||
                            Declared->hasAttr<CUDAHostAttr>());
      });
}

std::string streamSpelling(const StreamRef &S, const Expr *Arg,
                           const ASTContext &Ctx) {
  if (S.K == StreamRef::Kind::Legacy)
    return "the legacy default stream";
  if (S.K == StreamRef::Kind::PerThread)
    return platformApis(platformOf(Ctx)).PerThreadStream.str();
  if (!Arg)
    return "its stream";
  CharSourceRange Range = CharSourceRange::getTokenRange(
      Ctx.getSourceManager().getFileLoc(Arg->getBeginLoc()),
      Ctx.getSourceManager().getFileLoc(Arg->getEndLoc()));
  std::string Text =
      Lexer::getSourceText(Range, Ctx.getSourceManager(), Ctx.getLangOpts())
          .str();
  return Text.empty() ? "its stream" : "'" + Text + "'";
}

} // namespace cuda_async_lint
