//===- ParameterRegistrations.cpp - The caller's memory left pinned -------===//

#include "ParameterRegistrations.h"
#include "HostProvenance.h"
#include "analysis/code/LocalAliases.h"
#include "analysis/code/ObjectReferences.h"
#include "analysis/code/StmtWalk.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// What one function does with its pointer parameters.
struct ParameterUses {
  llvm::MapVector<const ParmVarDecl *, llvm::SmallVector<const CallExpr *, 2>>
      Registered, Unregistered;
  /// Where each parameter is named, in the order written.
  llvm::DenseMap<const ParmVarDecl *, llvm::SmallVector<SourceLocation, 4>>
      Named;
  llvm::SmallPtrSet<const ParmVarDecl *, 4> Escaped;
  /// Variables a lambda captures: the parameter they hold escapes.
  llvm::SmallPtrSet<const VarDecl *, 4> Captured;
  /// Something that is no parameter's memory is unregistered.
  bool UnregistersOther = false;
};

} // namespace

/// The expression a use of a parameter is part of as a pointer: through
/// parentheses, casts, pointer arithmetic and '&p[i]' ('(char *)p + off').
static const Expr *pointerUse(const Expr *E, ParentMap &PM) {
  while (const Stmt *P = PM.getParent(E)) {
    const auto *BO = dyn_cast<BinaryOperator>(P);
    const auto *Subscript = dyn_cast<ArraySubscriptExpr>(P);
    const auto *AddrOf =
        Subscript ? dyn_cast_or_null<UnaryOperator>(PM.getParentIgnoreParens(
                        const_cast<ArraySubscriptExpr *>(Subscript)))
                  : nullptr;
    if (isa<ParenExpr, CastExpr>(P) ||
        (BO && BO->isAdditiveOp() && BO->getType()->isPointerType()))
      E = cast<Expr>(P);
    else if (Subscript &&
             Subscript->getBase()->IgnoreParenCasts() ==
                 E->IgnoreParenCasts() &&
             AddrOf && AddrOf->getOpcode() == UO_AddrOf)
      E = AddrOf;
    else
      break;
  }
  return E;
}

/// True if handing \p Arg (argument \p Index) to \p Call may register or
/// unregister it, or keep it where the analysis loses it.
static bool callMayKeep(const CallExpr *Call, unsigned Index,
                        SummaryProvider &SP, const SourceManager &SM) {
  if (lookupApi(Call))
    return false; // Registrations are counted apart; a copy keeps nothing.
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return true;
  if (SM.isInSystemHeader(Callee->getLocation()))
    return false; // The C and C++ libraries unregister nothing.
  if (isa<CXXOperatorCallExpr>(Call))
    return true;
  const FunctionSummary *Summary = SP.summary(Callee);
  return !Summary || (Index < Summary->RegistersParam.size() &&
                      Summary->RegistersParam[Index]);
}

/// A local variable of \p FD (not static, not a parameter) that \p E
/// names, itself or by one subscript ('part[k]').
static const VarDecl *localVariable(const Expr *E, const FunctionDecl *FD) {
  E = E->IgnoreParenCasts();
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
    E = Subscript->getBase();
  const VarDecl *VD = localVar(E);
  return VD && !isa<ParmVarDecl>(VD) && VD->getDeclContext() == FD ? VD
                                                                   : nullptr;
}

/// The local variable the pointer use \p Use is stored into, if any:
/// 'q = p + off', 'float *q = p;', 'parts[i] = &p[k]'.
static const VarDecl *localAlias(const Expr *Use, ParentMap &PM,
                                 const FunctionDecl *FD) {
  const Stmt *P = PM.getParent(Use);
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
      BO && BO->getOpcode() == BO_Assign && BO->getRHS() == Use)
    return localVariable(BO->getLHS(), FD);
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(P))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D);
          VD && VD->getInit() &&
          VD->getInit()->IgnoreParenCasts() == Use->IgnoreParenCasts())
        return VD->hasLocalStorage() ? VD : nullptr;
  return nullptr;
}

/// Whether the pointer use \p Use lets what it points to go where this
/// function's registrations no longer describe it: stored beyond its locals,
/// returned, captured, or handed to a call that may keep or unpin it.
static bool escapes(const Expr *Use, ParentMap &PM, SummaryProvider &SP,
                    const SourceManager &SM) {
  const Stmt *P = PM.getParent(Use);
  if (!P)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->isAssignmentOp() && BO->getRHS() == Use;
  if (isa<DeclStmt, ReturnStmt, InitListExpr, CXXConstructExpr, LambdaExpr,
          CXXNewExpr>(P))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(P)) {
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (Call->getArg(I) == Use)
        return callMayKeep(Call, I, SP, SM);
    return false; // The callee itself, called through the pointer.
  }
  return false;
}

static ParameterUses parameterUses(const FunctionDecl *FD, ParentMap &PM,
                                   SummaryProvider &SP, ASTContext &Ctx) {
  ParameterUses U;
  const SourceManager &SM = Ctx.getSourceManager();
  // The parameter each variable holds: the parameter itself, and locals
  // stored from it. A local stored from two parameters holds neither.
  llvm::DenseMap<const VarDecl *, const ParmVarDecl *> Holds;
  for (const ParmVarDecl *PD : FD->parameters())
    if (PD->getType()->isPointerType())
      Holds[PD] = PD;
  std::vector<const DeclRefExpr *> Refs;
  std::vector<const CallExpr *> Registrations;
  forEachStmt(FD->getBody(), [&](const Stmt *S) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      Refs.push_back(DRE);
    else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const ApiSpec *Api = lookupApi(Call);
      if (Api &&
          (Api->Kind == ApiKind::Register || Api->Kind == ApiKind::Unregister))
        Registrations.push_back(Call);
    } else if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
      for (const LambdaCapture &C : Lambda->captures())
        if (C.capturesVariable())
          if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
            U.Captured.insert(VD);
    }
  });
  auto Held = [&](const Expr *E) -> const ParmVarDecl * {
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    auto It = VD ? Holds.find(VD) : Holds.end();
    return It == Holds.end() ? nullptr : It->second;
  };
  // Locals stored from a parameter, and from locals stored from one.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const DeclRefExpr *DRE : Refs)
      if (const ParmVarDecl *PD = Held(DRE))
        if (const VarDecl *Alias = localAlias(pointerUse(DRE, PM), PM, FD)) {
          auto [It, New] = Holds.try_emplace(Alias, PD);
          if (!New && It->second != PD && It->second)
            U.Escaped.insert(It->second), U.Escaped.insert(PD);
          Changed |= New;
        }
  }
  for (const DeclRefExpr *DRE : Refs) {
    const ParmVarDecl *PD = Held(DRE);
    if (!PD)
      continue;
    U.Named[PD].push_back(SM.getExpansionLoc(DRE->getBeginLoc()));
    const Expr *Use = pointerUse(DRE, PM);
    if (!localAlias(Use, PM, FD) && escapes(Use, PM, SP, SM))
      U.Escaped.insert(PD);
    if (U.Captured.count(cast<VarDecl>(DRE->getDecl())))
      U.Escaped.insert(PD);
  }
  for (const CallExpr *Call : Registrations) {
    const ApiSpec *Api = lookupApi(Call);
    const Expr *Ptr = Api->arg(Call, ArgRole::Ptr);
    const Expr *Base = Ptr ? pointerBase(Ptr) : nullptr;
    if (const auto *Subscript = dyn_cast_or_null<ArraySubscriptExpr>(Base))
      Base = Subscript->getBase()->IgnoreParenCasts();
    const ParmVarDecl *PD = Base ? Held(Base) : nullptr;
    if (Api->Kind == ApiKind::Register) {
      if (PD)
        U.Registered[PD].push_back(Call);
    } else if (PD) {
      U.Unregistered[PD].push_back(Call);
    } else {
      U.UnregistersOther = true;
    }
  }
  return U;
}

static std::optional<Registration> atReturn(const FunctionSummary &S,
                                            const ParmVarDecl *PD) {
  unsigned I = PD->getFunctionScopeIndex();
  return I < S.RegistersParam.size() ? S.RegistersParam[I] : std::nullopt;
}

std::vector<ParameterLeftRegistered>
parametersLeftRegistered(const FunctionDecl *FD, SummaryProvider &SP,
                         ASTContext &Ctx) {
  std::vector<ParameterLeftRegistered> Out;
  Stmt *Body = FD->getBody();
  if (!Body || FD->isDependentContext())
    return Out;
  ParentMap PM(Body);
  ParameterUses U = parameterUses(FD, PM, SP, Ctx);
  if (U.UnregistersOther || U.Registered.size() < 2 || U.Unregistered.empty())
    return Out;
  const FunctionSummary *Summary = SP.summary(FD);
  if (!Summary)
    return Out;
  const SourceManager &SM = Ctx.getSourceManager();
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(A, B);
  };
  for (const auto &[P, PRegs] : U.Registered) {
    std::optional<Registration> PAtReturn = atReturn(*Summary, P);
    if (U.Unregistered.count(P) || U.Escaped.count(P) || !PAtReturn ||
        *PAtReturn == Registration::No)
      continue;
    SourceLocation LastUse;
    for (SourceLocation L : U.Named[P])
      if (LastUse.isInvalid() || Before(LastUse, L))
        LastUse = L;
    for (const auto &[Q, QUnregs] : U.Unregistered) {
      auto QRegs = U.Registered.find(Q);
      if (Q == P || QRegs == U.Registered.end())
        continue;
      const CallExpr *Unregistered = nullptr;
      for (const CallExpr *QU : QUnregs) {
        SourceLocation At = SM.getExpansionLoc(QU->getBeginLoc());
        if (Before(LastUse, At) &&
            (!Unregistered ||
             Before(At, SM.getExpansionLoc(Unregistered->getBeginLoc()))))
          Unregistered = QU;
      }
      if (Unregistered) {
        Out.push_back({P, PRegs.front(), Q, Unregistered});
        break;
      }
    }
  }
  return Out;
}

} // namespace cuda_async_lint
