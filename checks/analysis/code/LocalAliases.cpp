//===- LocalAliases.cpp ---------------------------------------------------===//

#include "LocalAliases.h"
#include "LocalWrites.h"
#include "StdLibrary.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace cuda_async_lint {

const VarDecl *localVar(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasLocalStorage() ? VD : nullptr;
}

namespace {

/// Pointers initialized once and never written again, and the loop
/// variables of range-based for loops.
class AliasFinder : public LocalWrites<AliasFinder> {
public:
  llvm::DenseMap<const VarDecl *, const Expr *> Inits;
  llvm::DenseMap<const VarDecl *, const CXXForRangeStmt *> RangeLoops;

  bool VisitVarDecl(VarDecl *VD) {
    // A null initializer is no value yet ('float *d = nullptr;' before
    // 'cudaHostGetDevicePointer(&d, h, 0)').
    if (VD->hasLocalStorage() && VD->getType()->isPointerType() &&
        VD->getInit() && !isa<ParmVarDecl>(VD) &&
        !VD->getInit()->isNullPointerConstant(
            VD->getASTContext(), Expr::NPC_ValueDependentIsNotNull))
      Inits[VD] = VD->getInit();
    return true;
  }
  bool addressOnlyInitializes(const UnaryOperator *UO) const {
    return DeviceAliasOuts.count(UO);
  }
  /// 'cudaHostGetDevicePointer(&d, h, 0)': a pointer given no other value
  /// is an alias of 'h' (the same memory, at the device's address).
  llvm::DenseSet<const UnaryOperator *> DeviceAliasOuts;
  void deviceAlias(const CallExpr *Call) {
    const ApiSpec *Api = lookupApi(Call);
    if (!Api || Api->Kind != ApiKind::DevicePointer)
      return;
    const Expr *Out = Api->arg(Call, ArgRole::Out);
    const Expr *Host = Api->arg(Call, ArgRole::Ptr);
    const auto *Address =
        Out ? dyn_cast<UnaryOperator>(Out->IgnoreParenCasts()) : nullptr;
    if (!Host || !Address || Address->getOpcode() != UO_AddrOf)
      return;
    const VarDecl *VD = localVar(Address->getSubExpr());
    if (!VD || !VD->getType()->isPointerType())
      return;
    DeviceAliasOuts.insert(Address);
    // Given a value twice, or initialized too: not one alias.
    if (!Inits.try_emplace(VD, Host).second)
      Written.insert(VD);
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    RangeLoops[S->getLoopVariable()] = S;
    return true;
  }
  // Given by non-const reference ('std::swap(read, write)'): written.
  bool VisitCallExpr(CallExpr *Call) {
    deviceAlias(Call);
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return true;
    unsigned Offset = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD);
    for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
      if (I - Offset >= FD->getNumParams())
        break;
      if (bindsArgumentForWriting(FD, I - Offset))
        if (const VarDecl *VD = localVar(Call->getArg(I)))
          Written.insert(VD);
    }
    return true;
  }
};

} // namespace

const ParmVarDecl *
parameterThroughAliases(const Expr *E, const LocalAliases &Local,
                        llvm::function_ref<const Expr *(const Expr *)> Peel) {
  // An alias of an alias, at most this deep.
  for (unsigned Depth = 0; E && Depth <= 4; ++Depth) {
    const auto *DRE = dyn_cast<DeclRefExpr>(Peel(E));
    if (!DRE)
      return nullptr;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    auto It = VD ? Local.Aliases.find(VD) : Local.Aliases.end();
    if (It == Local.Aliases.end() || Depth == 4)
      return dyn_cast<ParmVarDecl>(DRE->getDecl());
    E = It->second;
  }
  return nullptr;
}

LocalAliases findLocalAliases(const FunctionDecl *FD) {
  AliasFinder Finder;
  Finder.TraverseDecl(const_cast<FunctionDecl *>(FD));
  LocalAliases Found;
  for (const auto &[VD, Init] : Finder.Inits)
    if (!Finder.Written.count(VD))
      Found.Aliases[VD] = Init;
  Found.RangeLoops = std::move(Finder.RangeLoops);
  return Found;
}

} // namespace cuda_async_lint
