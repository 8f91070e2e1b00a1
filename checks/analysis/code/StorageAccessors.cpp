//===- StorageAccessors.cpp - Member functions that return storage -------===//

#include "StorageAccessors.h"
#include "StmtWalk.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

/// Through the steps a returned pointer takes from what it points into:
/// parentheses, casts, '&m[i]', 'm + i'.
static const Expr *pointerOrigin(const Expr *E) {
  while (true) {
    E = E->IgnoreParenCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_AddrOf) {
      const Expr *Sub = UO->getSubExpr()->IgnoreParens();
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Sub)) {
        E = ASE->getBase();
        continue;
      }
      return Sub;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->isAdditiveOp()) {
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
      continue;
    }
    return E;
  }
}

static bool returnsOwnStorage(const CXXMethodDecl *MD, unsigned Depth) {
  if (!MD || Depth > 4 || MD->isVirtual() || MD->isStatic() ||
      !MD->getReturnType()->isPointerType())
    return false;
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def)
    return false;
  if (Def->getASTContext().getSourceManager().isInSystemHeader(
          Def->getLocation()))
    return false; // The standard library's accessors are StdLibrary's.
  // One return, the body's last statement; before it, what checks or
  // fills the storage ('KALDI_ASSERT(data_);', 'if (!data_) allocate();').
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->body_empty())
    return false;
  const auto *Return = dyn_cast<ReturnStmt>(Body->body_back());
  if (!Return || !Return->getRetValue())
    return false;
  unsigned Returns = 0;
  forEachStmtOutsideLambdas(
      Body, [&](const Stmt *S) { Returns += isa<ReturnStmt>(S); });
  if (Returns != 1)
    return false;
  const Expr *Origin = pointerOrigin(Return->getRetValue());
  // A pointer or array member of this object.
  if (const auto *ME = dyn_cast<MemberExpr>(Origin))
    return isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) &&
           isa<FieldDecl>(ME->getMemberDecl()) &&
           (ME->getType()->isPointerType() || ME->getType()->isArrayType());
  // Another accessor of this object.
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Origin)) {
    const Expr *Object = Call->getImplicitObjectArgument();
    return Object && isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) &&
           returnsOwnStorage(Call->getMethodDecl(), Depth + 1);
  }
  return false;
}

bool returnsOwnStorage(const CXXMethodDecl *MD) {
  return returnsOwnStorage(MD, 0);
}

static bool handsOutStorage(const CXXRecordDecl *RD, unsigned Depth) {
  if (!RD || !RD->hasDefinition() || Depth > 8)
    return false;
  RD = RD->getDefinition();
  for (const CXXMethodDecl *MD : RD->methods())
    if (returnsOwnStorage(MD))
      return true;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (handsOutStorage(Base.getType()->getAsCXXRecordDecl(), Depth + 1))
      return true;
  return false;
}

bool handsOutStorage(const CXXRecordDecl *RD) { return handsOutStorage(RD, 0); }

} // namespace cuda_async_lint
