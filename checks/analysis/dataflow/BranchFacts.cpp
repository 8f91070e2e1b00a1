//===- BranchFacts.cpp ----------------------------------------------------===//

#include "BranchFacts.h"
#include "analysis/code/StdLibrary.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Variables whose address is taken ('&x', a reference binding, a by-
/// reference lambda capture): calls may write them. An '&x' handed straight
/// to the CUDA runtime ('cudaGetDeviceCount(&n)', runtimeOutArgument) is
/// not: the call is one more write the analysis sees (writtenByApiCall).
class EscapeFinder : public RecursiveASTVisitor<EscapeFinder> {
public:
  std::set<const VarDecl *> Escaping;
  std::set<const FieldDecl *> AddressedFields;

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf &&
        !ApiOutOperands.count(UO->getSubExpr()->IgnoreParens()))
      note(UO->getSubExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() && VD->getInit())
      note(VD->getInit());
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (runtimeOutArgument(Call, I))
        ApiOutOperands.insert(addressOfOperand(Call->getArg(I)));
    // A non-const reference parameter binds the argument itself.
    const FunctionDecl *FD = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const ParmVarDecl *P =
          FD && I < FD->getNumParams() ? FD->getParamDecl(I) : nullptr;
      // An argument of '...' is passed by value.
      if (!P && FD && FD->isVariadic())
        continue;
      if (!P || bindsArgumentForWriting(FD, I))
        note(Call->getArg(I));
    }
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    note(Call->getImplicitObjectArgument()); // Methods may change *this.
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          Escaping.insert(VD);
    return true;
  }

private:
  /// The 'x' of each '&x' handed to the runtime as an out-argument.
  std::set<const Expr *> ApiOutOperands;

  void note(const Expr *E) {
    if (!E)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Escaping.insert(VD);
    if (const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenCasts()))
      if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        AddressedFields.insert(FD);
  }
};

/// \p E without parentheses, implicit casts and the ConstantExpr around a
/// case label: 'case Pinned:' and 'mode == Pinned' name the same value.
const Expr *spelled(const Expr *E) {
  for (;;) {
    E = E->IgnoreParenImpCasts();
    const auto *CE = dyn_cast<ConstantExpr>(E);
    if (!CE)
      return E;
    E = CE->getSubExpr();
  }
}

} // namespace

void BranchFacts::writtenByApiCall(const Stmt *S, BranchFactSet &Facts) {
  if (const auto *Call = dyn_cast<CallExpr>(S))
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (const VarDecl *VD = runtimeOutArgument(Call, I))
        written(VD, Facts);
}

BranchFacts::BranchFacts(const FunctionDecl *FD, ASTContext &Ctx) : Ctx(Ctx) {
  EscapeFinder Finder;
  Finder.TraverseDecl(const_cast<FunctionDecl *>(FD));
  Escaping = std::move(Finder.Escaping);
  AddressedFields = std::move(Finder.AddressedFields);
}

void BranchFacts::memberEffects(const Stmt *S, BranchFactSet &Facts) {
  if (Facts.empty())
    return;
  auto Forget = [&](const FieldDecl *Field) {
    llvm::erase_if(Facts, [&](const BranchFact &F) {
      return Field ? llvm::is_contained(F.fields(), Field)
                   : !F.fields().empty();
    });
  };
  // A kernel writes device memory, or host memory it is given: the member
  // of an object whose pointer it is not handed is not its to write.
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(S)) {
    for (const Expr *Arg : Launch->arguments())
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenCasts()))
        llvm::erase_if(Facts, [&](const BranchFact &F) {
          return !F.fields().empty() &&
                 llvm::is_contained(F.reads(), DRE->getDecl());
        });
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    // The runtime, and the libraries of system headers, write no object of
    // the user's they are not given a pointer to (the runtime's handles,
    // 'cudaStream_t', point to its own incomplete types).
    const FunctionDecl *Callee = Call->getDirectCallee();
    const ApiSpec *Api = lookupApi(Call);
    bool Harmless =
        Api ||
        (Callee && Callee->getASTContext().getSourceManager().isInSystemHeader(
                       Callee->getLocation()));
    // A copy writes its destination alone, and one to the device no host
    // object.
    const Expr *Written = nullptr;
    bool Copy = Api && Callee && Api->Kind == ApiKind::Copy;
    if (Copy) {
      std::optional<CopyDirection> Dir =
          copyDirection(Call, *Api, Callee->getASTContext());
      if (Dir != CopyDirection::HostToDevice &&
          Dir != CopyDirection::DeviceToDevice)
        Written = Api->arg(Call, ArgRole::Dst);
    }
    for (const Expr *Arg : Call->arguments()) {
      if (Copy && Arg != Written)
        continue;
      QualType T = Arg->IgnoreParenCasts()->getType();
      Harmless &= !(T->isPointerType() && T->getPointeeType()->isRecordType() &&
                    !T->getPointeeType()->isIncompleteType() &&
                    !T->getPointeeType().isConstQualified());
    }
    if (!Harmless)
      Forget(nullptr);
    return;
  }
  // A copy of a 'dim3', a constructor of a system header's type: they
  // write the object they make.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (!Ctor->isTrivial() &&
        !Ctor->getASTContext().getSourceManager().isInSystemHeader(
            Ctor->getLocation()))
      Forget(nullptr);
    return;
  }
  if (isa<CXXNewExpr, CXXDeleteExpr>(S)) {
    Forget(nullptr);
    return;
  }
  const Expr *Target = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    Target = BO->getLHS();
  else if (const auto *UO = dyn_cast<UnaryOperator>(S);
           UO && UO->isIncrementDecrementOp())
    Target = UO->getSubExpr();
  if (!Target)
    return;
  Target = Target->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(Target))
    Forget(dyn_cast<FieldDecl>(ME->getMemberDecl()));
  else if (Target->getType()->isRecordType())
    Forget(nullptr); // A whole object stored ('*p = q').
}

bool BranchFacts::isStable(const VarDecl *VD) const {
  return VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
         !VD->getType().isVolatileQualified() && !Escaping.count(VD) &&
         VD->getType()->isScalarType();
}

bool BranchFacts::stableReads(const Expr *E, BranchFact::Identity &Of) const {
  std::vector<const VarDecl *> &Reads = Of.Reads;
  E = E->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    const auto *Base =
        dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
    const auto *VD = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    if (!Field || !VD || !Field->getType()->isIntegralOrEnumerationType() ||
        Field->getType().isVolatileQualified() ||
        AddressedFields.count(Field) || !VD->hasLocalStorage() ||
        Escaping.count(VD))
      return false;
    // 'p->n' through a stable pointer; 's.n' of a local object.
    bool Object = !ME->isArrow() && VD->getType()->isRecordType() &&
                  !VD->getType().isVolatileQualified();
    if (!(ME->isArrow() ? isStable(VD) : Object))
      return false;
    Reads.push_back(VD);
    Of.Fields.push_back(Field);
    return true;
  }
  if (isa<IntegerLiteral, CXXBoolLiteralExpr, CharacterLiteral>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    if (VD->getType().isConstQualified() && VD->getInit() &&
        !VD->getType()->isReferenceType())
      return true; // A constant.
    if (!isStable(VD))
      return false;
    Reads.push_back(VD);
    return true;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return stableReads(Cast->getSubExpr(), Of);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_Deref &&
           UO->getOpcode() != UO_AddrOf && stableReads(UO->getSubExpr(), Of);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
           stableReads(BO->getLHS(), Of) && stableReads(BO->getRHS(), Of);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return stableReads(CO->getCond(), Of) &&
           stableReads(CO->getTrueExpr(), Of) &&
           stableReads(CO->getFalseExpr(), Of);
  return false;
}

std::optional<BranchFact> BranchFacts::conditionFact(const Expr *Cond,
                                                     bool Outcome) const {
  Cond = Cond->IgnoreParenImpCasts();
  // '!c' and 'a != b' are facts about 'c' and 'a == b'.
  while (const auto *UO = dyn_cast<UnaryOperator>(Cond)) {
    if (UO->getOpcode() != UO_LNot)
      break;
    Cond = UO->getSubExpr()->IgnoreParenImpCasts();
    Outcome = !Outcome;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE))
    return equalityFact(BO->getLHS(), BO->getRHS(),
                        BO->getOpcode() == BO_EQ ? Outcome : !Outcome);
  auto Of = llvm::makeIntrusiveRefCnt<BranchFact::Identity>();
  if (!stableReads(Cond, *Of) || Of->Reads.empty())
    return std::nullopt;
  Cond->Profile(Of->Id, Ctx, /*Canonical=*/true);
  return BranchFact{BranchFact::Kind::Condition, std::move(Of), Outcome, {}};
}

std::optional<BranchFact> BranchFacts::equalityFact(const Expr *Subject,
                                                    const Expr *Value,
                                                    bool Outcome) const {
  Subject = spelled(Subject);
  Value = spelled(Value);
  auto Of = llvm::makeIntrusiveRefCnt<BranchFact::Identity>();
  if (!stableReads(Subject, *Of) || !stableReads(Value, *Of) ||
      Of->Reads.empty())
    return std::nullopt;
  // 'x == K' is written either way round; the constant goes second.
  Expr::EvalResult R;
  if (!Subject->isValueDependent() && Subject->EvaluateAsInt(R, Ctx))
    std::swap(Subject, Value);
  Of->Id.AddInteger(BO_EQ);
  Subject->Profile(Of->Id, Ctx, /*Canonical=*/true);
  Value->Profile(Of->Id, Ctx, /*Canonical=*/true);
  std::optional<int64_t> Constant;
  if (!Value->isValueDependent() && Value->EvaluateAsInt(R, Ctx)) {
    Subject->Profile(Of->Subject, Ctx, /*Canonical=*/true);
    Constant = R.Val.getInt().getExtValue();
  }
  return BranchFact{BranchFact::Kind::Condition, std::move(Of), Outcome,
                    Constant};
}

bool BranchFacts::takeSwitchEdge(const SwitchStmt *Switch,
                                 const Stmt *SuccLabel,
                                 BranchFactSet &Facts) const {
  const Expr *Cond = Switch->getCond();
  if (!Cond)
    return true;
  if (const auto *Case = dyn_cast_or_null<CaseStmt>(SuccLabel)) {
    if (Case->caseStmtIsGNURange())
      return true;
    std::optional<BranchFact> F = equalityFact(Cond, Case->getLHS(), true);
    return !F || add(std::move(*F), Facts);
  }
  // The default, or no case at all: the value is none of the cases.
  for (const SwitchCase *SC = Switch->getSwitchCaseList(); SC;
       SC = SC->getNextSwitchCase())
    if (const auto *Case = dyn_cast<CaseStmt>(SC);
        Case && !Case->caseStmtIsGNURange())
      if (std::optional<BranchFact> F =
              equalityFact(Cond, Case->getLHS(), false))
        if (!add(std::move(*F), Facts))
          return false;
  return true;
}

std::optional<BranchFact>
BranchFacts::boundFact(const Expr *Cond, bool Outcome,
                       const VarDecl *&Counter) const {
  const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!BO || (BO->getOpcode() != BO_LT && BO->getOpcode() != BO_NE))
    return std::nullopt;
  const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
  Counter = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!Counter)
    return std::nullopt;
  // With the counter at 0: 'i < n' and 'i != n' hold exactly when n > 0
  // (for 'i != n', when n != 0, which a loop counting up from 0 reads as
  // n > 0).
  auto Of = llvm::makeIntrusiveRefCnt<BranchFact::Identity>();
  const Expr *Bound = BO->getRHS()->IgnoreParenImpCasts();
  if (!stableReads(Bound, *Of) || Of->Reads.empty())
    return std::nullopt;
  Bound->Profile(Of->Id, Ctx, /*Canonical=*/true);
  return BranchFact{
      BranchFact::Kind::PositiveBound, std::move(Of), Outcome, {}};
}

bool BranchFacts::add(BranchFact F, BranchFactSet &Facts) {
  unsigned SameSubjectNegations = 0;
  for (const BranchFact &Known : Facts) {
    if (Known.sameExpression(F))
      return Known.Value == F.Value;
    // x == K and x == K2 for two different constants.
    if (F.Value && Known.Value && F.Constant && Known.Constant &&
        *F.Constant != *Known.Constant && F.subject() == Known.subject())
      return false;
    if (!F.Value && !Known.Value && F.Constant && Known.Constant &&
        F.subject() == Known.subject())
      ++SameSubjectNegations;
  }
  // A path through a dispatch chain ('if (m == 0) .. else if (m == 1) ..',
  // a switch's default) learns 'm != K' for every K: past a few per
  // variable, and past MaxFacts in all, a fact is not kept (the path is
  // merely assumed feasible further on), so that a path's facts stay few
  // however long the chain.
  if (Facts.size() >= MaxFacts ||
      (!F.Value && F.Constant && SameSubjectNegations >= MaxNegations))
    return true;
  Facts.insert(llvm::upper_bound(Facts, F), std::move(F));
  return true;
}

void BranchFacts::written(const VarDecl *VD, BranchFactSet &Facts) {
  llvm::erase_if(Facts, [&](const BranchFact &F) {
    return llvm::is_contained(F.reads(), VD);
  });
}

void BranchFacts::intersect(BranchFactSet &Into, const BranchFactSet &From) {
  // Both sorted: one merge pass.
  auto Other = From.begin();
  llvm::erase_if(Into, [&](const BranchFact &F) {
    while (Other != From.end() && *Other < F)
      ++Other;
    return Other == From.end() || !(*Other == F);
  });
}

} // namespace cuda_async_lint
