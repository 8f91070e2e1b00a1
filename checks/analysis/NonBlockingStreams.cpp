//===- NonBlockingStreams.cpp ---------------------------------------------===//

#include "NonBlockingStreams.h"
#include "../api/CudaApiCatalog.h"
#include "../api/StreamRef.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// The stream creations with cudaStreamNonBlocking (flag bit 1).
class NonBlockingFinder : public RecursiveASTVisitor<NonBlockingFinder> {
public:
  std::set<const ValueDecl *> NonBlocking;
  explicit NonBlockingFinder(const ASTContext &Ctx) : Ctx(Ctx) {}

  bool VisitCallExpr(CallExpr *Call) {
    const ApiSpec *Api = lookupApi(Call);
    if (!Api || Api->Kind != ApiKind::StreamCreate)
      return true;
    const Expr *Flags = Api->arg(Call, ArgRole::Flags);
    const Expr *Out = Api->arg(Call, ArgRole::Out);
    Expr::EvalResult R;
    if (!Flags || !Out || Flags->isValueDependent() ||
        !Flags->EvaluateAsInt(R, Ctx) || !(R.Val.getInt().getZExtValue() & 1))
      return true;
    if (const Expr *Created = addressOfOperand(Out)) {
      StreamRef S = streamRef(Created);
      if (S.Decl)
        NonBlocking.insert(S.Decl);
    }
    return true;
  }

private:
  const ASTContext &Ctx;
};

} // namespace

std::set<const ValueDecl *> nonBlockingStreams(const FunctionDecl *FD,
                                               const ASTContext &Ctx) {
  NonBlockingFinder Finder(Ctx);
  Finder.TraverseDecl(const_cast<FunctionDecl *>(FD));
  return std::move(Finder.NonBlocking);
}

} // namespace cuda_async_lint
