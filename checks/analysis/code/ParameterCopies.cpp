//===- ParameterCopies.cpp ------------------------------------------------===//

#include "ParameterCopies.h"
#include "EveryCallCode.h"
#include "LocalAliases.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// What \p E points into: 'h' of 'h', 'h + n', '&h[i]' under casts.
const Expr *pointedBase(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const Expr *Operand = addressOfOperand(E))
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Operand))
      E = Sub->getBase()->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->isAdditiveOp() && BO->getLHS()->getType()->isPointerType())
    E = BO->getLHS()->IgnoreParenCasts();
  return E;
}

/// The function of the unit's user code \p Call runs, with its body.
const FunctionDecl *userCallee(const CallExpr *Call) {
  return isa<CXXOperatorCallExpr>(Call)
             ? nullptr
             : userDefinition(Call->getDirectCallee());
}

struct Collector {
  const FunctionDecl *FD;
  LocalAliases Local;
  /// The functions whose copies are being collected: a recursive call
  /// adds nothing.
  llvm::SmallPtrSet<const FunctionDecl *, 8> &Visiting;
  std::vector<ParameterCopy> &Out;

  void add(const Expr *Arg, const ParameterCopy &Inner,
           const CallExpr *Via = nullptr) {
    if (const ParmVarDecl *P = parameterThroughAliases(Arg, Local, pointedBase))
      if (P->getDeclContext() == FD)
        Out.push_back({P->getFunctionScopeIndex(), Inner.Copy, Inner.Side,
                       Inner.In, Via, Via ? Arg : nullptr});
  }

  void collect(const Stmt *S);
};

std::vector<ParameterCopy>
copiesOf(const FunctionDecl *Def,
         llvm::SmallPtrSet<const FunctionDecl *, 8> &Visiting) {
  std::vector<ParameterCopy> Out;
  if (Visiting.size() >= 8 || !Visiting.insert(Def).second)
    return Out;
  Collector C{Def, findLocalAliases(Def), Visiting, Out};
  C.collect(Def->getBody());
  Visiting.erase(Def);
  return Out;
}

/// The copies under \p S that run whenever \p S does, as far as it copies
/// (EveryCallCode.h): a loop's body copies each chunk it runs for.
void Collector::collect(const Stmt *S) {
  forEachStmtOnEveryCall(
      S, FD->getASTContext(), /*IntoLoops=*/true, [&](const Stmt *Node) {
        const auto *Call = dyn_cast<CallExpr>(Node);
        if (!Call)
          return;
        if (const ApiSpec *Api = lookupApi(Call)) {
          if (Api->Kind == ApiKind::Copy && Api->Mode == ApiMode::Async)
            for (const HostSide &Side :
                 hostSides(Call, *Api, FD->getASTContext()))
              add(Side.Arg, {0, Call, Side, FD});
        } else if (const FunctionDecl *Callee = userCallee(Call)) {
          // A parameter handed on to a function of the unit that copies it.
          for (const ParameterCopy &Inner : copiesOf(Callee, Visiting))
            if (Inner.Param < Call->getNumArgs())
              add(Call->getArg(Inner.Param), Inner, Call);
        }
      });
}

} // namespace

std::vector<ParameterCopy> parameterCopies(const FunctionDecl *FD) {
  const FunctionDecl *Def = userDefinition(FD);
  if (!Def)
    return {};
  llvm::SmallPtrSet<const FunctionDecl *, 8> Visiting;
  return copiesOf(Def, Visiting);
}

} // namespace cuda_async_lint
