//===- ProvenanceAnalysis.cpp ---------------------------------------------===//

#include "ProvenanceAnalysis.h"
#include "../api/CudaApiCatalog.h"
#include "../api/StreamRef.h"
#include "../summaries/Summarize.h"
#include "StdLibrary.h"
#include "UserCodeVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <mutex>

using namespace clang;

namespace cuda_async_lint {

namespace {

/// True if \p Init leaves a pointer (or every element of an array of
/// pointers) null.
bool isNullInitializer(const Expr *Init, ASTContext &Ctx) {
  Init = Init->IgnoreParenImpCasts();
  if (isa<ImplicitValueInitExpr>(Init))
    return true;
  if (const auto *List = dyn_cast<InitListExpr>(Init)) {
    for (const Expr *Element : List->inits())
      if (!isNullInitializer(Element, Ctx))
        return false;
    return !List->hasArrayFiller() ||
           isNullInitializer(List->getArrayFiller(), Ctx);
  }
  return Init->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull);
}

/// The field or global an escape of \p E lets others store into: a
/// summarized variable, or a summarized global array of pointers as a whole.
const ValueDecl *escapingVariable(const Expr *E) {
  if (const ValueDecl *D = summarizedVariable(E))
    return D;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return isSummarizedGlobal(VD) ? VD->getCanonicalDecl() : nullptr;
}

/// Finds every place the translation unit stores into a user pointer field
/// or global, or registers memory, with the function that does it.
class SiteFinder : public UserCodeVisitor<SiteFinder> {
public:
  SiteFinder(const SourceManager &SM, ProvenanceAnalysis::Sites &Out)
      : UserCodeVisitor(SM), Out(Out) {}

  bool TraverseConstructorInitializer(CXXCtorInitializer *Init) {
    if (const FieldDecl *FD = Init->getAnyMember())
      if (isSummarizedField(FD))
        storedBy(FD);
    return RecursiveASTVisitor::TraverseConstructorInitializer(Init);
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      if (const ValueDecl *D = summarizedVariable(BO->getLHS()))
        storedBy(D);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    const ApiSpec *Api = lookupApi(Call);
    if (Api && Api->Kind == ApiKind::Register && Current)
      Out.RegisterCalls.push_back({Current, Call});
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee) {
      const FunctionDecl *Canonical = Callee->getCanonicalDecl();
      if (Current && !isa<CXXOperatorCallExpr>(Call))
        Out.CallsTo[Canonical].push_back({Current, Call});
      else
        Out.NotOnlyCalled.insert(Canonical);
      if (const auto *Named =
              dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()))
        CalleeNames.insert(Named);
    }
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      // '&field' or '&global' as an argument: the function analysis records
      // what the call stores there (or Unknown).
      if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts());
          UO && UO->getOpcode() == UO_AddrOf)
        if (const ValueDecl *D = summarizedVariable(UO->getSubExpr())) {
          PassedToCall.insert(UO);
          storedBy(D);
        }
      // A field or global bound to a non-const reference parameter may be
      // stored into.
      if (Callee && I < Callee->getNumParams()) {
        QualType T = Callee->getParamDecl(I)->getType();
        if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
          if (const ValueDecl *D = escapingVariable(Arg))
            Out.Escaped.insert(D);
      }
    }
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    // A function named as anything but a call's callee (its address taken,
    // a reference bound to it) may be called from where we cannot see.
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (!CalleeNames.count(DRE))
        Out.NotOnlyCalled.insert(FD->getCanonicalDecl());
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf && !PassedToCall.count(UO))
      if (const ValueDecl *D = escapingVariable(UO->getSubExpr()))
        Out.Escaped.insert(D);
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *ASE) {
    SubscriptBases.insert(ASE->getBase()->IgnoreParens());
    return true;
  }

  /// A global array of pointers decayed to a pointer anywhere but a
  /// subscript ('memset(g, ...)', 'int **p = g') may be stored through.
  bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
    if (Cast->getCastKind() == CK_ArrayToPointerDecay &&
        !SubscriptBases.count(Cast))
      if (const ValueDecl *D = escapingVariable(Cast->getSubExpr()))
        Out.Escaped.insert(D);
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() && VD->getInit())
      if (const ValueDecl *D = escapingVariable(VD->getInit()))
        Out.Escaped.insert(D);
    // A global starts null (zero-initialized); any other initializer is
    // not analysed, and the global is unknown.
    if (isSummarizedGlobal(VD) && VD->getInit() &&
        !isNullInitializer(VD->getInit(), VD->getASTContext()))
      Out.Escaped.insert(VD->getCanonicalDecl());
    return true;
  }

  bool VisitInitListExpr(InitListExpr *List) {
    const RecordDecl *RD = List->getType()->getAsRecordDecl();
    if (!RD || List->isTransparent() || !List->isSemanticForm())
      return true;
    for (const FieldDecl *FD : RD->fields())
      if (isSummarizedField(FD))
        storedBy(FD);
    return true;
  }

private:
  void storedBy(const ValueDecl *D) {
    // A store outside any function (a global's initializer) is not
    // analysed: the variable is unknown.
    if (Current)
      Out.Stores[D].insert(Current);
    else
      Out.Escaped.insert(D);
  }

  ProvenanceAnalysis::Sites &Out;
  llvm::DenseSet<const UnaryOperator *> PassedToCall;
  llvm::DenseSet<const Expr *> SubscriptBases;
  llvm::DenseSet<const DeclRefExpr *> CalleeNames;
};

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

bool isVirtualDispatch(const FunctionDecl *FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  return MD && MD->isVirtual() && !MD->hasAttr<FinalAttr>() &&
         !MD->getParent()->hasAttr<FinalAttr>();
}

} // namespace

bool branchesOnFlagParameter(const FunctionDecl *Def) {
  return Def && Def->getBody() && BranchOnParameter::in(Def);
}

ProvenanceAnalysis::ProvenanceAnalysis(ASTContext &Ctx)
    : Ctx(Ctx), Program(Ctx.getSourceManager()) {}

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

std::shared_ptr<ProvenanceAnalysis>
ProvenanceAnalysis::forTranslationUnit(ASTContext &Ctx) {
  // The driver analyses translation units on several threads at once.
  static std::mutex Lock;
  static std::map<const ASTContext *, std::weak_ptr<ProvenanceAnalysis>> Live;
  std::lock_guard<std::mutex> Guard(Lock);
  for (auto It = Live.begin(); It != Live.end();)
    It = It->second.expired() ? Live.erase(It) : std::next(It);
  std::weak_ptr<ProvenanceAnalysis> &Slot = Live[&Ctx];
  if (std::shared_ptr<ProvenanceAnalysis> Existing = Slot.lock())
    return Existing;
  auto Fresh = std::make_shared<ProvenanceAnalysis>(Ctx);
  Slot = Fresh;
  return Fresh;
}

const FunctionDecl *
ProvenanceAnalysis::definition(const FunctionDecl *FD) const {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return nullptr;
  return Def;
}

const FunctionProvenance &ProvenanceAnalysis::function(const FunctionDecl *FD) {
  const FunctionDecl *Def = definition(FD);
  if (!Def)
    Def = FD;
  auto It = Functions.find(Def);
  // An analysis that read a global or field while a function storing it
  // was under way (a caller of this function, say) is made again, once, when
  // nothing is under way.
  bool Again =
      It != Functions.end() && InProgress.empty() && Provisional.erase(Def);
  if (It != Functions.end() && !Again)
    return *It->second;
  unsigned Before = IncompleteAnswers;
  InProgress.insert(Def);
  auto Analysis = std::make_unique<FunctionProvenance>(Def, Ctx, this);
  InProgress.erase(Def);
  if (IncompleteAnswers != Before && !Again)
    Provisional.insert(Def);
  // The analysis made again replaces the first, which stays alive for
  // whoever still reads it (a check in the middle of its pointerAt).
  std::unique_ptr<FunctionProvenance> &Slot = Functions[Def];
  if (Slot)
    Superseded.push_back(std::move(Slot));
  return *(Slot = std::move(Analysis));
}

bool ProvenanceAnalysis::isOpaque(const FunctionDecl *FD) {
  // The C and C++ libraries and the CUDA headers' inline functions do not
  // pin memory; kernels cannot.
  if (Ctx.getSourceManager().isInSystemHeader(FD->getLocation()) ||
      FD->hasAttr<CUDAGlobalAttr>())
    return false;
  // One of another unit without facts in the program, too (a summary, if
  // the program has one, comes first).
  const FunctionDecl *Def = definition(FD);
  return !Def || isVirtualDispatch(FD) || InProgress.count(Def);
}

bool ProvenanceAnalysis::fromProgram(const FunctionDecl *FD) const {
  return !definition(FD) && !isVirtualDispatch(FD);
}

std::optional<unsigned> ProvenanceAnalysis::callAnswer(const FunctionDecl *FD,
                                                       const CallShape &Shape,
                                                       bool Now) {
  if (!fromProgram(FD))
    return std::nullopt;
  return Program.answerNumber(FD, ProgramQuestion::Kind::CallEffect, Now,
                              Shape.text());
}

const RegistrationReads &ProvenanceAnalysis::reads(const FunctionDecl *FD) {
  return *Reads.get(FD, [&](const FunctionDecl *F) {
    const auto &CallsTo = sites().CallsTo;
    return std::make_unique<RegistrationReads>(
        F, CallsTo.count(F->getCanonicalDecl()) != 0);
  });
}

/// A stream or event handle is no host memory: what a call may do to its
/// registration is read by nothing.
static bool isHandle(const Expr *Arg) {
  return isStreamType(Arg->getType()) || isEventType(Arg->getType());
}

bool ProvenanceAnalysis::originRegistrationRead(Origin O, const Expr *Arg,
                                                const FunctionDecl *Caller,
                                                const FunctionDecl *Callee) {
  if (!fromProgram(Callee) || !Caller)
    return true;
  if (isHandle(Arg))
    return false;
  if (const auto *S = O.dyn_cast<const Stmt *>())
    return !allocatedWithin(S, Arg);
  if (const auto *D = O.dyn_cast<const Decl *>())
    if (const auto *VD = dyn_cast<VarDecl>(D))
      return reads(Caller).storageRead(VD);
  return true;
}

bool ProvenanceAnalysis::parameterRegistrationRead(const ParmVarDecl *PD,
                                                   const Expr *Arg,
                                                   const FunctionDecl *Caller,
                                                   const FunctionDecl *Callee) {
  if (!fromProgram(Callee) || !Caller)
    return true;
  return !isHandle(Arg) && reads(Caller).parameterRead(PD);
}

std::optional<unsigned>
ProvenanceAnalysis::returnAnswer(const FunctionDecl *FD) {
  if (!fromProgram(FD))
    return std::nullopt;
  return Program.answerNumber(FD, ProgramQuestion::Kind::Returns,
                              /*Now=*/false);
}

void ProvenanceAnalysis::noteOutParam(const FunctionDecl *FD, unsigned Param) {
  if (fromProgram(FD))
    Program.note(FD, ProgramQuestion::Kind::OutParam, "", Param);
}

const FunctionSummary *ProvenanceAnalysis::summary(const FunctionDecl *FD) {
  const FunctionDecl *Def = definition(FD);
  if (fromProgram(FD))
    if (const FunctionFacts *Facts = Program.facts(FD))
      return &Facts->Summary;
  if (!Def || isVirtualDispatch(FD) || InProgress.count(Def) ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return nullptr;
  return &function(Def).summary();
}

bool ProvenanceAnalysis::writtenOnlyByMain(const VarDecl *VD) {
  if (!FlagsOfMain)
    FlagsOfMain.emplace(Ctx);
  return FlagsOfMain->contains(VD);
}

const ProvenanceAnalysis::Sites &ProvenanceAnalysis::sites() {
  if (!Index) {
    Index.emplace();
    SiteFinder Finder(Ctx.getSourceManager(), *Index);
    Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  return *Index;
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
      if (names(Call->getArg(I)) &&
          (!Callee || I >= Callee->getNumParams() ||
           (Callee->getParamDecl(I)->getType()->isReferenceType() &&
            !Callee->getParamDecl(I)
                 ->getType()
                 .getNonReferenceType()
                 .isConstQualified())))
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

PointerValue ProvenanceAnalysis::localStores(const ValueDecl *D, bool &Escaped,
                                             bool &Incomplete,
                                             const FunctionDecl *Except) {
  const Sites &S = sites();
  Escaped = S.Escaped.count(D);
  PointerValue Value = PointerValue::unset();
  auto StoresIt = S.Stores.find(D);
  if (Escaped || StoresIt == S.Stores.end())
    return Value;
  for (const FunctionDecl *Storer : StoresIt->second) {
    if (Storer == Except)
      continue;
    if (InProgress.count(Storer)) {
      Incomplete = true;
      return PointerValue::unknown();
    }
    const auto &Stores = function(Storer).stores();
    if (auto It = Stores.find(D); It != Stores.end())
      Value = PointerValue::join(Value, It->second);
  }
  return Value;
}

bool storedOnlyHere(const VarDecl *VD, const SourceManager &SM) {
  if (!VD->isExternallyVisible())
    return true;
  if (!VD->getDefinition())
    return false;
  return llvm::all_of(VD->redecls(), [&](const VarDecl *R) {
    return SM.isInMainFile(SM.getExpansionLoc(R->getLocation()));
  });
}

PointerValue ProvenanceAnalysis::stored(const ValueDecl *D) {
  if (auto It = Variables.find(D); It != Variables.end())
    return It->second;
  // A variable whose stores depend on its own value (directly or through
  // other variables) is unknown.
  if (!VariablesInProgress.insert(D).second) {
    ++IncompleteAnswers;
    return PointerValue::unknown();
  }
  bool Escaped = false, Incomplete = false;
  PointerValue Value = localStores(D, Escaped, Incomplete);
  if (Escaped)
    Value = PointerValue::unknown();
  // The stores of the program's other units, into a field of a type they
  // share. A global is summarized only where no other unit can name it.
  const auto *Record = dyn_cast<RecordDecl>(D->getDeclContext());
  if (const auto *Global = dyn_cast<VarDecl>(D)) {
    if (!storedOnlyHere(Global, Ctx.getSourceManager()))
      Value = PointerValue::unknown();
  } else if (Program && !Value.peekTop() && Record &&
             Record->isExternallyVisible()) {
    // Only a value this unit has not made top can learn from the others'
    // stores (and only then is the question asked); where this unit
    // stores nothing, what the others' stores alone make it. (Which
    // question is asked depends on this unit's value, which carries its
    // own answers into the result.)
    if (std::string Usr = usrOf(D); !Usr.empty())
      Value = Value.peekTag() == PointerValue::Tag::Unset
                  ? Program.stored(Usr).madeFrom(Value.answersAsChosen())
                  : PointerValue::join(Value, Program.field(Usr));
  }
  // Never stored on a reachable path: nothing to say.
  if (Value.peekTag() == PointerValue::Tag::Unset)
    Value = PointerValue::unknownForUnset(Value);
  VariablesInProgress.erase(D);
  // Asked while a function that stores it is being analysed (a call's
  // argument evaluated in its own body): unknown now, not for good.
  if (!Incomplete)
    Variables.insert({D, Value});
  else
    ++IncompleteAnswers;
  return Value;
}

const llvm::DenseSet<const FunctionDecl *> &
ProvenanceAnalysis::writers(const VarDecl *VD) {
  auto [It, New] = Writers.try_emplace(VD);
  if (!New)
    return It->second;
  llvm::DenseSet<const FunctionDecl *> Found;
  llvm::SmallVector<const FunctionDecl *, 8> Work;
  auto Add = [&](const FunctionDecl *F) {
    if (Found.insert(F->getCanonicalDecl()).second)
      Work.push_back(F->getCanonicalDecl());
  };
  const Sites &S = sites();
  if (auto Stores = S.Stores.find(VD); Stores != S.Stores.end())
    for (const FunctionDecl *Storer : Stores->second)
      Add(Storer);
  while (!Work.empty()) {
    const FunctionDecl *F = Work.pop_back_val();
    if (auto Calls = S.CallsTo.find(F); Calls != S.CallsTo.end())
      for (const auto &[Caller, Call] : Calls->second)
        Add(Caller);
  }
  return Writers[VD] = std::move(Found);
}

bool ProvenanceAnalysis::tracksGlobal(const VarDecl *VD) {
  const Sites &S = sites();
  if (S.Escaped.count(VD) || !storedOnlyHere(VD, Ctx.getSourceManager()))
    return false;
  // A writer called through a pointer (a callback, a lambda) may run in any
  // call.
  return llvm::none_of(writers(VD), [&](const FunctionDecl *F) {
    return S.NotOnlyCalled.count(F);
  });
}

bool ProvenanceAnalysis::mayStoreGlobal(const FunctionDecl *Callee,
                                        const VarDecl *VD) {
  return isVirtualDispatch(Callee) ||
         writers(VD).count(Callee->getCanonicalDecl());
}

PointerValue ProvenanceAnalysis::globalAtEntry(const VarDecl *VD,
                                               const FunctionDecl *FD) {
  if (!FD || !FD->isMain())
    return stored(VD);
  // main runs once, after the static initializers: the global holds null,
  // or what a function other than main stored.
  bool Escaped = false, Incomplete = false;
  PointerValue Value = localStores(VD, Escaped, Incomplete, FD);
  if (Incomplete)
    ++IncompleteAnswers;
  return Escaped ? PointerValue::unknown() : Value;
}

llvm::ArrayRef<Origin> ProvenanceAnalysis::registeredOrigins() {
  if (!RegisteredOrigins) {
    RegisteredOrigins.emplace();
    for (const auto &[Function, Call] : sites().RegisterCalls) {
      const ApiSpec *Api = lookupApi(Call);
      if (InProgress.count(Function) || !Api)
        continue;
      PointerValue V =
          function(Function).valueAt(Call, Api->arg(Call, ArgRole::Ptr));
      for (Origin Registered : V.origins()) {
        if (RegisteredOrigins->insert(Registered.getOpaqueValue()).second)
          RegisteredList.push_back(Registered);
        if (const auto *D = Registered.dyn_cast<const clang::Decl *>())
          if (const auto *VD = llvm::dyn_cast<clang::ValueDecl>(D))
            RegistersContainerStorage |= isPageableHeapContainer(VD->getType());
      }
    }
  }
  return RegisteredList;
}

bool ProvenanceAnalysis::registersContainerStorage() {
  (void)registeredOrigins();
  return RegistersContainerStorage || Program.registersContainerStorage();
}

bool ProvenanceAnalysis::registeredAnywhere(Origin O) {
  (void)registeredOrigins();
  // A vector behind a reference may be one a caller registered: where the
  // translation unit registers any container's storage, it stays open.
  if (const auto *D = O.dyn_cast<const clang::Decl *>())
    if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D))
      if (VD->getType()->isReferenceType() &&
          isPageableHeapContainer(VD->getType()) && registersContainerStorage())
        return true;
  if (RegisteredOrigins->count(O.getOpaqueValue()))
    return true;
  // Registered by another unit of the program.
  return Program && Program.registered(originKey(O, Ctx.getSourceManager()));
}

} // namespace cuda_async_lint
