//===- RegistrationReads.cpp ----------------------------------------------===//

#include "RegistrationReads.h"
#include "HostProvenance.h"
#include "api/CudaApiCatalog.h"
#include "api/ReleaseSite.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

class ReadFinder : public RecursiveASTVisitor<ReadFinder> {
public:
  ReadFinder(const ASTContext &Ctx, ParentMap &Parents,
             llvm::DenseSet<const VarDecl *> &Named,
             llvm::DenseSet<const ParmVarDecl *> &Read)
      : Ctx(Ctx), Parents(Parents), Named(Named), Read(Read) {}

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && !isa<ParmVarDecl>(VD) && !confinedUse(DRE))
      Named.insert(VD);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    // A check asks what the host memory of a CUDA call or a release points
    // to: a copy's host sides, where its direction is known; any other
    // argument but a stream or an event.
    const ApiSpec *Api = lookupApi(Call);
    std::optional<ReleaseSite> Release = releaseSite(Call);
    if (!Api && !Release)
      return true;
    if (Release && !Api) {
      read(Release->Ptr);
      return true;
    }
    if (Api->Kind == ApiKind::Copy && copyDirection(Call, *Api, Ctx)) {
      for (const HostSide &Side : hostSides(Call, *Api, Ctx))
        read(Side.Arg);
      return true;
    }
    for (const Expr *Arg : Call->arguments())
      if (Arg != Api->arg(Call, ArgRole::Stream) &&
          Arg != Api->arg(Call, ArgRole::Event))
        read(Arg);
    return true;
  }

  bool VisitCXXDeleteExpr(CXXDeleteExpr *Delete) {
    read(Delete->getArgument());
    return true;
  }

private:
  void read(const Expr *Arg) {
    if (const ParmVarDecl *PD = Arg ? pointerParameterBase(Arg) : nullptr)
      Read.insert(PD);
  }

  /// A use of a local that names no part of its storage as a pointer
  /// value: 'x.n' read or written (a scalar or pointer member, not a
  /// method's object), or '&x' handed straight to a call of a function
  /// without a body here, which gives nothing it is handed back.
  bool confinedUse(const DeclRefExpr *DRE) {
    const Stmt *Up =
        Parents.getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(DRE));
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(Up)) {
      QualType T = ME->getType();
      if (ME->isArrow() || isa<CXXMethodDecl>(ME->getMemberDecl()) ||
          T->isArrayType() || T->isRecordType())
        return false;
      const auto *UO = dyn_cast_or_null<UnaryOperator>(
          Parents.getParentIgnoreParenImpCasts(const_cast<MemberExpr *>(ME)));
      return !UO || UO->getOpcode() != UO_AddrOf;
    }
    const auto *UO = dyn_cast_or_null<UnaryOperator>(Up);
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return false;
    const auto *Call = dyn_cast_or_null<CallExpr>(
        Parents.getParentIgnoreParenCasts(const_cast<UnaryOperator *>(UO)));
    if (!Call || isa<CXXOperatorCallExpr>(Call) || lookupApi(Call))
      return false;
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Callee->hasBody())
      return false;
    return llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
      return Arg->IgnoreParenCasts() == UO;
    });
  }

  const ASTContext &Ctx;
  ParentMap &Parents;
  llvm::DenseSet<const VarDecl *> &Named;
  llvm::DenseSet<const ParmVarDecl *> &Read;
};

} // namespace

RegistrationReads::RegistrationReads(const FunctionDecl *FD,
                                     bool HasLocalCallers)
    : Function(FD), HasLocalCallers(HasLocalCallers) {
  Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body)
    return;
  ParentMap Parents(Body);
  ReadFinder(FD->getASTContext(), Parents, Named, ReadParameters)
      .TraverseStmt(Body);
}

bool RegistrationReads::storageRead(const VarDecl *VD) const {
  // Only a local of this very function: a lambda's enclosing function's,
  // or a global, may be named elsewhere.
  return !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
         VD->getParentFunctionOrMethod() != Function || Named.count(VD);
}

bool allocatedWithin(const Stmt *Origin, const Expr *Arg) {
  llvm::SmallVector<const Stmt *, 16> Work{Arg};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (S == Origin)
      return true;
    for (const Stmt *Child : S->children())
      if (Child)
        Work.push_back(Child);
  }
  return false;
}

} // namespace cuda_async_lint
