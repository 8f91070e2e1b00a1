//===- ParameterCopies.cpp ------------------------------------------------===//

#include "ParameterCopies.h"
#include "LocalAliases.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// The parameter \p E points into: 'h', 'h + n', '&h[i]' under casts, or
/// a local alias of one ('unsigned char *buffer = (unsigned char *)src').
const ParmVarDecl *pointedParameter(const Expr *E, const LocalAliases &Local,
                                    unsigned Depth = 0) {
  E = E->IgnoreParenCasts();
  if (const Expr *Operand = addressOfOperand(E))
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Operand))
      E = Sub->getBase()->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->isAdditiveOp() && BO->getLHS()->getType()->isPointerType())
    E = BO->getLHS()->IgnoreParenCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && Depth < 4)
    if (auto It = Local.Aliases.find(VD); It != Local.Aliases.end())
      return pointedParameter(It->second, Local, Depth + 1);
  return dyn_cast<ParmVarDecl>(DRE->getDecl());
}

/// The function of the unit's user code \p Call runs, with its body.
const FunctionDecl *userCallee(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || isa<CXXOperatorCallExpr>(Call) || !Callee->hasBody(Def) ||
      !Def || Def->isDependentContext())
    return nullptr;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())) ? nullptr
                                                                     : Def;
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
    if (const ParmVarDecl *P = pointedParameter(Arg, Local))
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

/// The copies under \p S that run whenever \p S does, as far as it copies:
/// not under a branch (an if's arms, a switch, '?:') or a lambda. A copy in
/// an if's condition runs ('if (cudaMemcpyAsync(...) != cudaSuccess)', the
/// shape of error-check macros), as does a 'do { } while (0)' body; a loop's
/// body copies each chunk it runs for.
void Collector::collect(const Stmt *S) {
  if (!S || isa<LambdaExpr, SwitchStmt, ConditionalOperator, CXXTryStmt>(S))
    return;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    collect(If->getInit());
    collect(If->getCond());
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (const ApiSpec *Api = lookupApi(Call)) {
      if (Api->Kind == ApiKind::Copy && Api->Mode == ApiMode::Async)
        for (const HostSide &Side : hostSides(Call, *Api, FD->getASTContext()))
          add(Side.Arg, {0, Call, Side, FD});
    } else if (const FunctionDecl *Callee = userCallee(Call)) {
      // A parameter handed on to a function of the unit that copies it.
      for (const ParameterCopy &Inner : copiesOf(Callee, Visiting))
        if (Inner.Param < Call->getNumArgs())
          add(Call->getArg(Inner.Param), Inner, Call);
    }
  }
  for (const Stmt *Child : S->children())
    collect(Child);
}

} // namespace

std::vector<ParameterCopy> parameterCopies(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->isDependentContext())
    return {};
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return {};
  llvm::SmallPtrSet<const FunctionDecl *, 8> Visiting;
  return copiesOf(Def, Visiting);
}

} // namespace cuda_async_lint
