//===- NonBlockingStreams.cpp ---------------------------------------------===//

#include "NonBlockingStreams.h"
#include "api/CudaApiCatalog.h"
#include "api/StreamRef.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <map>

using namespace clang;

namespace cuda_async_lint {

namespace {

/// The stream creations, with what their flags say (bit 1 is
/// cudaStreamNonBlocking; cudaStreamCreate has none).
class CreationFinder : public RecursiveASTVisitor<CreationFinder> {
public:
  enum Flag : unsigned { Blocking = 1, NonBlocking = 2, Unknown = 4 };
  std::map<const ValueDecl *, unsigned> Created;
  explicit CreationFinder(const ASTContext &Ctx) : Ctx(Ctx) {}

  /// Only the program's code creates the program's streams.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) &&
        Ctx.getSourceManager().isInSystemHeader(
            Ctx.getSourceManager().getExpansionLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitCallExpr(CallExpr *Call) {
    const ApiSpec *Api = lookupApi(Call);
    if (!Api || Api->Kind != ApiKind::StreamCreate)
      return true;
    const Expr *Out = Api->arg(Call, ArgRole::Out);
    const Expr *Created = Out ? addressOfOperand(Out) : nullptr;
    StreamRef S = streamRef(Created);
    if (!Created || !S.Decl)
      return true;
    const Expr *Flags = Api->arg(Call, ArgRole::Flags);
    Expr::EvalResult R;
    unsigned Flag = Blocking;
    if (Flags && (Flags->isValueDependent() || !Flags->EvaluateAsInt(R, Ctx)))
      Flag = Unknown;
    else if (Flags && (R.Val.getInt().getZExtValue() & 1))
      Flag = NonBlocking;
    this->Created[S.Decl] |= Flag;
    return true;
  }

private:
  const ASTContext &Ctx;
};

} // namespace

std::set<const ValueDecl *> nonBlockingStreams(const FunctionDecl *FD,
                                               const ASTContext &Ctx) {
  CreationFinder Finder(Ctx);
  Finder.TraverseDecl(const_cast<FunctionDecl *>(FD));
  std::set<const ValueDecl *> NonBlocking;
  for (auto [Decl, Flags] : Finder.Created)
    if (Flags & CreationFinder::NonBlocking)
      NonBlocking.insert(Decl);
  return NonBlocking;
}

StreamCreations::StreamCreations(const ASTContext &Ctx) {
  CreationFinder Finder(Ctx);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (auto [Decl, Flags] : Finder.Created) {
    if (Flags == CreationFinder::Blocking)
      Blocking.insert(Decl);
    if (Flags & CreationFinder::NonBlocking)
      NonBlocking.insert(Decl);
  }
}

} // namespace cuda_async_lint
