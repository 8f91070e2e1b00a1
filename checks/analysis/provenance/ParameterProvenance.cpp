//===- ParameterProvenance.cpp - What a parameter is passed ---------------===//

#include "ProvenanceAnalysis.h"
#include "analysis/code/StdLibrary.h"
#include "api/CudaApiCatalog.h"
#include "summaries/Summarize.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Finds a branch on a parameter that is not a pointer
/// (branchesOnFlagParameter).
class BranchOnParameter : public RecursiveASTVisitor<BranchOnParameter> {
public:
  static bool in(const FunctionDecl *Def) {
    BranchOnParameter Finder;
    Finder.TraverseStmt(Def->getBody());
    return Finder.Found;
  }

  bool Found = false;

  bool VisitIfStmt(IfStmt *S) { return test(S->getCond()); }
  bool VisitSwitchStmt(SwitchStmt *S) { return test(S->getCond()); }
  bool VisitAbstractConditionalOperator(AbstractConditionalOperator *C) {
    return test(C->getCond());
  }

private:
  bool test(const Expr *Cond) {
    if (Cond && mentionsFlag(Cond))
      Found = true;
    return !Found;
  }
  static bool mentionsFlag(const Stmt *S) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *PD = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        if (!PD->getType()->isPointerType())
          return true;
    for (const Stmt *Child : S->children())
      if (Child && mentionsFlag(Child))
        return true;
    return false;
  }
};

} // namespace

bool branchesOnFlagParameter(const FunctionDecl *Def) {
  return Def && Def->getBody() && BranchOnParameter::in(Def);
}

/// True if each unit that calls \p Def compiles its own copy of it: internal
/// linkage, an inline function, or an instantiation of a template (a
/// function template, or a member of a class template). The calls this unit
/// makes are then every call its copy runs for; another unit's calls run
/// that unit's copy, with its own arguments.
static bool compiledPerUnit(const FunctionDecl *Def) {
  if (!Def->isExternallyVisible() || Def->isInlined() ||
      Def->isTemplateInstantiation())
    return true;
  const auto *MD = dyn_cast<CXXMethodDecl>(Def);
  return MD && MD->getParent()->getTemplateInstantiationPattern();
}

bool takesCallSiteProvenance(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return false;
  return compiledPerUnit(Def) && !Def->isTemplated() &&
         !isVirtualDispatch(Def) && !Def->isVariadic() && !Def->isMain() &&
         llvm::any_of(Def->parameters(), [](const ParmVarDecl *P) {
           return P->getType()->isPointerType();
         });
}

PointerValue ProvenanceAnalysis::localArguments(
    llvm::ArrayRef<std::pair<const FunctionDecl *, const CallExpr *>> Calls,
    unsigned Index, bool &Incomplete) {
  PointerValue Value = PointerValue::unset();
  for (const auto &[Caller, Call] : Calls) {
    const FunctionDecl *CallerDef = definition(Caller);
    bool Busy = CallerDef && InProgress.count(CallerDef);
    Incomplete |= Busy;
    if (!CallerDef || Busy || Index >= Call->getNumArgs())
      return PointerValue::unknown();
    Value =
        PointerValue::join(Value, function(CallerDef).argumentAt(Call, Index));
    // Unknown stays so (the value carries the answers that made it so).
    if (Value.peekTag() == PointerValue::Tag::Unknown)
      break;
  }
  return Value;
}

PointerValue ProvenanceAnalysis::parameter(const ParmVarDecl *PD) {
  if (auto It = Parameters.find(PD); It != Parameters.end())
    return It->second;
  // Precision first: only a function whose every call its body runs for
  // this translation unit holds (takesCallSiteProvenance, and never named
  // but as a callee), or the program's summaries do, and that branches on
  // no flag parameter.
  const auto *FD = dyn_cast<FunctionDecl>(PD->getDeclContext());
  bool Local = takesCallSiteProvenance(FD);
  if (!Local && !(Program.holdsEveryCaller() && takesProgramCallSites(FD)))
    return PointerValue::unknown();
  const FunctionDecl *Def = definition(FD);
  if (!Def || Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
      !ParametersInProgress.insert(PD).second)
    return PointerValue::unknown();
  const Sites &S = sites();
  const FunctionDecl *Canonical = Def->getCanonicalDecl();
  PointerValue Value = PointerValue::unknown();
  auto Calls = S.CallsTo.find(Canonical);
  unsigned Index = PD->getFunctionScopeIndex();
  bool Incomplete = false;
  if (!S.NotOnlyCalled.count(Canonical) && !branchesOnFlagParameter(Def)) {
    Value = Calls == S.CallsTo.end()
                ? PointerValue::unset()
                : localArguments(Calls->second, Index, Incomplete);
    // The calls in the program's other units, for an external function:
    // asked only where they can change the value, and, where this unit
    // makes no call, as one question (what the program's calls alone
    // pass), which "none yet" and "unknown" answer alike.
    if (!Local) {
      std::string Usr = usrOf(Canonical);
      // (Which question is asked depends on this unit's value, which
      // carries its own answers into the result.)
      if (Usr.empty())
        Value = PointerValue::unknown();
      else if (Value.peekTag() == PointerValue::Tag::Unset)
        Value = Program.parameter(Usr, Index).madeFrom(Value.answersAsChosen());
      else if (!Value.peekTop())
        Value = Program.notOnlyCalled(Usr)
                    ? PointerValue::unknown()
                    : PointerValue::join(Value, Program.argument(Usr, Index));
    }
    if (Value.peekTag() == PointerValue::Tag::Unset)
      Value = PointerValue::unknownForUnset(Value);
  }
  ParametersInProgress.erase(PD);
  if (!Incomplete)
    Parameters.insert({PD, Value});
  return Value;
}

namespace {

/// True if \p Body may change \p PD: assigned, incremented, its address
/// taken, or bound to a non-const reference.
class ModifiesParameter : public RecursiveASTVisitor<ModifiesParameter> {
public:
  explicit ModifiesParameter(const ParmVarDecl *PD) : PD(PD) {}
  bool Found = false;

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && names(BO->getLHS()))
      Found = true;
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        names(UO->getSubExpr()))
      Found = true;
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (names(Call->getArg(I)) && (!Callee || I >= Callee->getNumParams() ||
                                     bindsArgumentForWriting(Callee, I)))
        Found = true;
    return !Found;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() &&
        !VD->getType().getNonReferenceType().isConstQualified() &&
        VD->getInit() && names(VD->getInit()))
      Found = true;
    return !Found;
  }

private:
  bool names(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == PD;
  }
  const ParmVarDecl *PD;
};

} // namespace

std::optional<std::pair<int64_t, const CallExpr *>>
ProvenanceAnalysis::constantParameter(const ParmVarDecl *PD) {
  const auto *FD = dyn_cast<FunctionDecl>(PD->getDeclContext());
  const FunctionDecl *Def = FD ? definition(FD) : nullptr;
  if (!Def || isVirtualDispatch(Def) || Def->isVariadic() ||
      !compiledPerUnit(Def))
    return std::nullopt;
  const Sites &S = sites();
  const FunctionDecl *Canonical = Def->getCanonicalDecl();
  auto Calls = S.CallsTo.find(Canonical);
  if (S.NotOnlyCalled.count(Canonical) || Calls == S.CallsTo.end())
    return std::nullopt;
  ModifiesParameter Finder(PD);
  Finder.TraverseStmt(Def->getBody());
  if (Finder.Found)
    return std::nullopt;
  unsigned Index = PD->getFunctionScopeIndex();
  std::optional<std::pair<int64_t, const CallExpr *>> Result;
  for (const auto &[Caller, Call] : Calls->second) {
    if (Index >= Call->getNumArgs())
      return std::nullopt;
    std::optional<int64_t> V = integerConstant(Call->getArg(Index), Ctx);
    if (!V || (Result && Result->first != *V))
      return std::nullopt;
    if (!Result || Ctx.getSourceManager().isBeforeInTranslationUnit(
                       Call->getBeginLoc(), Result->second->getBeginLoc()))
      Result = {*V, Call};
  }
  return Result;
}

} // namespace cuda_async_lint
