//===- FixedFlag.cpp ------------------------------------------------------===//

#include "FixedFlag.h"
#include "HostProvenance.h"
#include "analysis/code/UserCodeVisitor.h"
#include "analysis/dataflow/BranchFacts.h"
#include "analysis/dataflow/ForwardDataflow.h"
#include "api/CudaApiCatalog.h"
#include "clang/Basic/SourceManager.h"
#include <map>

using namespace clang;

namespace cuda_async_lint {

namespace {

const VarDecl *namedVariable(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD ? VD->getCanonicalDecl() : nullptr;
}

bool isFlagType(QualType T) {
  return T->isIntegralOrEnumerationType() && !T.isVolatileQualified() &&
         !T->isReferenceType();
}

/// The flag \p Cond tests for truth ('f', '!f', 'f != 0', 'f == false'),
/// and whether the condition holds when the flag is true; null if it is no
/// such test.
const VarDecl *testedFlag(const Expr *Cond, bool &HoldsWhenTrue,
                          const ASTContext &Ctx) {
  HoldsWhenTrue = true;
  Cond = Cond->IgnoreParenImpCasts();
  for (;;) {
    if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
        UO && UO->getOpcode() == UO_LNot) {
      Cond = UO->getSubExpr()->IgnoreParenImpCasts();
      HoldsWhenTrue = !HoldsWhenTrue;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
        BO && BO->isEqualityOp()) {
      const Expr *Subject = BO->getLHS(), *Zero = BO->getRHS();
      if (integerConstant(Subject, Ctx) == 0)
        std::swap(Subject, Zero);
      if (integerConstant(Zero, Ctx) != 0)
        return nullptr;
      Cond = Subject->IgnoreParenImpCasts();
      if (BO->getOpcode() == BO_EQ)
        HoldsWhenTrue = !HoldsWhenTrue;
      continue;
    }
    break;
  }
  const VarDecl *VD = namedVariable(Cond);
  return VD && isFlagType(VD->getType()) ? VD : nullptr;
}

/// Whether \p S writes \p VD: assigns it, increments or decrements it,
/// declares it, or hands '&VD' to the CUDA runtime as an out-argument.
bool writesVariable(const Stmt *S, const VarDecl *VD) {
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->isAssignmentOp() && namedVariable(BO->getLHS()) == VD;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    return UO->isIncrementDecrementOp() &&
           namedVariable(UO->getSubExpr()) == VD;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    return llvm::any_of(DS->decls(), [&](const Decl *D) {
      return D->getCanonicalDecl() == VD;
    });
  if (const auto *Call = dyn_cast<CallExpr>(S))
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (const VarDecl *Out = runtimeOutArgument(Call, I))
        if (Out->getCanonicalDecl() == VD)
          return true;
  return false;
}

/// Scalar globals, the functions that write each, and those whose address
/// is taken or bound to a reference.
class GlobalWrites : public UserCodeVisitor<GlobalWrites> {
public:
  using UserCodeVisitor::UserCodeVisitor;

  std::map<const VarDecl *, llvm::DenseSet<const FunctionDecl *>> Writers;
  llvm::DenseSet<const VarDecl *> Escaped;

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      wrote(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      wrote(UO->getSubExpr());
    else if (UO->getOpcode() == UO_AddrOf && !RuntimeOut.count(UO))
      escaped(UO->getSubExpr());
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    // 'cudaGetDeviceCount(&g)' writes g where the call is; any other call
    // given '&g' is an escape (VisitUnaryOperator).
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (runtimeOutArgument(Call, I)) {
        const Expr *Arg = Call->getArg(I)->IgnoreParenCasts();
        RuntimeOut.insert(Arg);
        wrote(addressOfOperand(Arg));
      }
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const ParmVarDecl *P = Callee && I < Callee->getNumParams()
                                 ? Callee->getParamDecl(I)
                                 : nullptr;
      if (P && P->getType()->isReferenceType() &&
          !P->getType().getNonReferenceType().isConstQualified())
        escaped(Call->getArg(I));
    }
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() && VD->getInit() &&
        !VD->getType().getNonReferenceType().isConstQualified())
      escaped(VD->getInit());
    return true;
  }

private:
  const VarDecl *global(const Expr *E) const {
    const VarDecl *VD = E ? namedVariable(E) : nullptr;
    return VD && VD->hasGlobalStorage() && isFlagType(VD->getType()) ? VD
                                                                     : nullptr;
  }
  void wrote(const Expr *E) {
    if (const VarDecl *VD = global(E))
      Writers[VD].insert(Current);
  }
  void escaped(const Expr *E) {
    if (const VarDecl *VD = global(E))
      Escaped.insert(VD);
  }

  llvm::DenseSet<const Expr *> RuntimeOut;
};

} // namespace

MainOnlyGlobals::MainOnlyGlobals(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {
  GlobalWrites Finder(SM);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  Others = std::move(Finder.Escaped);
  for (const auto &[VD, Writers] : Finder.Writers)
    if (llvm::any_of(Writers, [](const FunctionDecl *FD) {
          return !FD || !FD->isMain();
        }))
      Others.insert(VD);
}

bool MainOnlyGlobals::contains(const VarDecl *VD) const {
  VD = VD->getCanonicalDecl();
  return VD->hasGlobalStorage() && isFlagType(VD->getType()) &&
         !Others.count(VD) && storedOnlyHere(VD, SM);
}

std::vector<FixedFlag>
FixedFlag::find(const FunctionDecl *FD, const CFG &Cfg, ASTContext &Ctx,
                llvm::function_ref<bool(const VarDecl *)> WrittenOnlyByMain,
                size_t Max) {
  // Every flag tested, by its first declaration's place, so that the choice
  // does not depend on addresses.
  std::map<const VarDecl *, FixedFlag> Tested;
  for (const CFGBlock *B : Cfg) {
    const Expr *Cond = branchCondition(*B);
    bool HoldsWhenTrue = true;
    if (const VarDecl *VD =
            Cond ? testedFlag(Cond, HoldsWhenTrue, Ctx) : nullptr) {
      FixedFlag &F = Tested[VD];
      F.Var = VD;
      F.TrueEdge[B->getBlockID()] = HoldsWhenTrue ? 0 : 1;
    }
  }
  std::vector<FixedFlag *> Candidates;
  for (auto &[VD, F] : Tested)
    if (F.TrueEdge.size() >= 2)
      Candidates.push_back(&F);
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Candidates, [&](FixedFlag *A, FixedFlag *B) {
    if (A->TrueEdge.size() != B->TrueEdge.size())
      return A->TrueEdge.size() > B->TrueEdge.size();
    return SM.isBeforeInTranslationUnit(A->Var->getLocation(),
                                        B->Var->getLocation());
  });
  std::optional<BranchFacts> Stability;
  std::vector<FixedFlag> Fixed;
  for (FixedFlag *F : Candidates) {
    if (Fixed.size() == Max)
      break;
    const VarDecl *VD = F->Var;
    bool WrittenHere;
    if (VD->hasLocalStorage()) {
      if (!Stability)
        Stability.emplace(FD, Ctx);
      if (!Stability->isStable(VD))
        continue;
      WrittenHere = true;
    } else {
      if (!WrittenOnlyByMain(VD))
        continue;
      WrittenHere = FD->isMain();
    }
    // No write may follow a test: search forward from every test.
    std::vector<const CFGBlock *> Work;
    llvm::DenseSet<const CFGBlock *> Seen;
    for (const CFGBlock *B : Cfg)
      if (F->TrueEdge.count(B->getBlockID()))
        for (const CFGBlock::AdjacentBlock &Succ : B->succs())
          if (const CFGBlock *SB = Succ.getReachableBlock();
              SB && Seen.insert(SB).second)
            Work.push_back(SB);
    bool Written = false;
    while (WrittenHere && !Written && !Work.empty()) {
      const CFGBlock *B = Work.back();
      Work.pop_back();
      for (const CFGElement &E : *B)
        if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
          Written |= writesVariable(CS->getStmt(), VD);
      for (const CFGBlock::AdjacentBlock &Succ : B->succs())
        if (const CFGBlock *SB = Succ.getReachableBlock();
            SB && Seen.insert(SB).second)
          Work.push_back(SB);
    }
    if (!Written)
      Fixed.push_back(std::move(*F));
  }
  return Fixed;
}

bool FixedFlag::feasible(const CFGBlock &From, unsigned SuccIndex,
                         bool Value) const {
  auto It = TrueEdge.find(From.getBlockID());
  return It == TrueEdge.end() || (SuccIndex == It->second) == Value;
}

} // namespace cuda_async_lint
