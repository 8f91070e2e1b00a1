//===- SwitchCorrelation.cpp ----------------------------------------------===//

#include "SwitchCorrelation.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <set>

using namespace clang;

namespace cuda_async_lint {

namespace {

using CaseValues = std::set<llvm::APSInt>;

/// The variable a switch tests, if its condition names one plainly.
const VarDecl *switchVariable(const SwitchStmt *Switch) {
  if (Switch->getConditionVariable() || Switch->getInit())
    return nullptr;
  const auto *Ref =
      dyn_cast<DeclRefExpr>(Switch->getCond()->IgnoreParenImpCasts());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return VD && VD->isLocalVarDeclOrParm() && !VD->getType()->isReferenceType()
             ? VD
             : nullptr;
}

/// Whether every use of \p VD in \p Body reads its value: nothing assigns
/// it, increments it, takes its address or binds it to a reference.
class OnlyRead : public RecursiveASTVisitor<OnlyRead> {
public:
  OnlyRead(const VarDecl *VD, ParentMap &PM) : VD(VD), PM(PM) {}
  bool Changed = false;
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() != VD)
      return true;
    const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(
        PM.getParentIgnoreParens(const_cast<DeclRefExpr *>(Ref)));
    if (!Cast || Cast->getCastKind() != CK_LValueToRValue)
      Changed = true;
    return !Changed;
  }

private:
  const VarDecl *VD;
  ParentMap &PM;
};

/// Whether control never falls from \p S into the statement after it.
bool endsCase(const Stmt *S) {
  while (const auto *Label = dyn_cast<SwitchCase>(S))
    S = Label->getSubStmt();
  return isa<BreakStmt, ReturnStmt, ContinueStmt, GotoStmt, CXXThrowExpr>(S);
}

/// The values that take a switch to one statement of its body: the labels
/// that reach it (its own, and those that fall through to it), whether a
/// default label does, and every label of the switch (what default is not).
struct CaseSet {
  CaseValues Values;
  bool Default = false;
  CaseValues AllLabels;
};

bool caseValue(const CaseStmt *Case, const ASTContext &Ctx,
               llvm::APSInt &Value) {
  Expr::EvalResult R;
  if (Case->caseStmtIsGNURange() || !Case->getLHS()->EvaluateAsInt(R, Ctx))
    return false;
  Value = R.Val.getInt();
  return true;
}

/// Adds the labels \p S carries ('case A: case B: s;') to \p Set; false
/// for a value that is not a constant.
bool addLabels(const Stmt *S, CaseSet &Set, const ASTContext &Ctx) {
  while (const auto *Label = dyn_cast<SwitchCase>(S)) {
    if (const auto *Case = dyn_cast<CaseStmt>(Label)) {
      llvm::APSInt V;
      if (!caseValue(Case, Ctx, V))
        return false;
      Set.Values.insert(V);
    } else {
      Set.Default = true;
    }
    S = Label->getSubStmt();
  }
  return true;
}

/// The switch on \p VD (any variable where null) around \p S and the cases
/// that reach \p S; nullopt where the switch's body is not a list of
/// labelled statements or a label is not a constant.
std::optional<std::pair<const SwitchStmt *, CaseSet>>
caseOf(const Stmt *S, const VarDecl *VD, ParentMap &PM, const ASTContext &Ctx) {
  for (const Stmt *Child = S, *Parent = PM.getParent(S); Parent;
       Child = Parent, Parent = PM.getParent(Parent)) {
    const auto *Body = dyn_cast<CompoundStmt>(Parent);
    const auto *Switch =
        Body ? dyn_cast_or_null<SwitchStmt>(PM.getParent(Body)) : nullptr;
    if (!Switch || Switch->getBody() != Body ||
        (VD && switchVariable(Switch) != VD))
      continue;
    if (!switchVariable(Switch))
      return std::nullopt;
    CaseSet Set;
    for (const SwitchCase *SC = Switch->getSwitchCaseList(); SC;
         SC = SC->getNextSwitchCase())
      if (const auto *Case = dyn_cast<CaseStmt>(SC)) {
        llvm::APSInt V;
        if (!caseValue(Case, Ctx, V))
          return std::nullopt;
        Set.AllLabels.insert(V);
      }
    llvm::ArrayRef<Stmt *> Items(Body->body_begin(), Body->body_end());
    auto It = llvm::find(Items, Child);
    if (It == Items.end())
      return std::nullopt;
    for (size_t I = It - Items.begin() + 1; I-- > 0;) {
      if (!addLabels(Items[I], Set, Ctx))
        return std::nullopt;
      if (I > 0 && endsCase(Items[I - 1]))
        break;
    }
    if (Set.Values.empty() && !Set.Default)
      return std::nullopt;
    return std::make_pair(Switch, std::move(Set));
  }
  return std::nullopt;
}

bool contains(const CaseValues &Set, const llvm::APSInt &V) {
  return llvm::any_of(Set, [&](const llvm::APSInt &W) {
    return llvm::APSInt::isSameValue(V, W);
  });
}

/// Whether one value of the variable takes both switches to their
/// statements: a value both list, a value one lists that the other's
/// default takes (it is none of the other's labels), or two defaults.
bool shareAValue(const CaseSet &A, const CaseSet &B) {
  if (A.Default && B.Default)
    return true;
  auto Takes = [](const CaseSet &Set, const llvm::APSInt &V) {
    return contains(Set.Values, V) ||
           (Set.Default && !contains(Set.AllLabels, V));
  };
  return llvm::any_of(A.Values,
                      [&](const llvm::APSInt &V) { return Takes(B, V); }) ||
         llvm::any_of(B.Values,
                      [&](const llvm::APSInt &V) { return Takes(A, V); });
}

} // namespace

llvm::SmallVector<Origin, 2> originsReaching(llvm::ArrayRef<Origin> Origins,
                                             const Stmt *At,
                                             const FunctionDecl *FD) {
  llvm::SmallVector<Origin, 2> All(Origins.begin(), Origins.end());
  if (!FD || !FD->getBody() || Origins.size() < 2)
    return All;
  ParentMap PM(FD->getBody());
  if (!PM.hasParent(At))
    return All;
  const ASTContext &Ctx = FD->getASTContext();
  auto Use = caseOf(At, nullptr, PM, Ctx);
  if (!Use)
    return All;
  const VarDecl *VD = switchVariable(Use->first);
  OnlyRead Reads(VD, PM);
  Reads.TraverseStmt(FD->getBody());
  if (Reads.Changed)
    return All;
  llvm::SmallVector<Origin, 2> Reaching;
  for (Origin O : Origins) {
    const auto *S = O.dyn_cast<const Stmt *>();
    std::optional<std::pair<const SwitchStmt *, CaseSet>> Made;
    if (S && PM.hasParent(S))
      Made = caseOf(S, VD, PM, Ctx);
    if (!Made || shareAValue(Made->second, Use->second))
      Reaching.push_back(O);
  }
  return Reaching;
}

std::optional<MemoryKind> allocationKind(Origin O) {
  const auto *S = O.dyn_cast<const Stmt *>();
  if (!S)
    return std::nullopt;
  if (isa<CXXNewExpr>(S))
    return MemoryKind::Pageable;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const ApiSpec *Api = lookupApi(Call))
      if (Api->Kind == ApiKind::Allocate && Api->Memory)
        return *Api->Memory;
  return std::nullopt;
}

} // namespace cuda_async_lint
