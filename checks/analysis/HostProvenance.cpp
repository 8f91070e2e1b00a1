//===- HostProvenance.cpp - The provenance dataflow -----------------------===//

#include "HostProvenance.h"
#include "../api/CudaApiCatalog.h"
#include "../api/ReleaseSite.h"
#include "../summaries/Summarize.h"
#include "CallEffects.h"
#include "FixedFlag.h"
#include "ForwardDataflow.h"
#include "StdLibrary.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace cuda_async_lint {

SummaryProvider::~SummaryProvider() = default;

PointerValue SummaryProvider::parameter(const ParmVarDecl *) {
  return PointerValue::unknown();
}

static const char UnknownUnregistrationTag = 0;
const void *const UnknownUnregistration = &UnknownUnregistrationTag;

namespace {

/// Pointer-like locals the dataflow tracks by value.
bool isTrackedType(QualType T) {
  if (T->isReferenceType())
    return false;
  if (T->isPointerType() || isSmartPointer(T))
    return true;
  const clang::Type *Elem = T->getPointeeOrArrayElementType();
  return T->isArrayType() && Elem->isPointerType();
}

const VarDecl *asTrackedLocal(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  if (!DRE)
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->hasLocalStorage() || !isTrackedType(VD->getType()))
    return nullptr;
  return VD;
}

/// True for a local array of structs ('Plan plan[8];'), whose elements'
/// fields the dataflow tracks as one object's.
bool isLocalObjectArray(const VarDecl *VD) {
  const auto *Array =
      dyn_cast<ConstantArrayType>(VD->getType()->getUnqualifiedDesugaredType());
  return VD->hasLocalStorage() && Array &&
         Array->getElementType()->isRecordType();
}

/// The variable \p E names, itself ('v') or by one subscript ('v[i]', then
/// \p Element is set), or null.
const VarDecl *namedVariable(const Expr *E, bool &Element) {
  E = E->IgnoreParenImpCasts();
  Element = false;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    E = ASE->getBase()->IgnoreParenImpCasts();
    Element = true;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// A local struct object ('Arrays h;'), or an element of a local array of
/// structs ('plan[i]', and the array itself), whose fields the dataflow
/// tracks per object while its address does not escape.
const VarDecl *asLocalObject(const Expr *E) {
  bool Element;
  const VarDecl *VD = namedVariable(E, Element);
  if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType())
    return nullptr;
  if (isLocalObjectArray(VD) || (!Element && VD->getType()->isRecordType()))
    return VD;
  return nullptr;
}

/// A pointer field of one object the dataflow can name: 'h.data' of a local
/// struct, or 'p->data' of a tracked local pointer.
struct ObjectMember {
  const VarDecl *Base;
  const FieldDecl *Field;
  /// 'p->data': another pointer may alias the object.
  bool Arrow;
  /// 'plan[i].data': one element of a local array of structs, whose fields
  /// all elements share (a store joins).
  bool Element = false;
};

std::optional<ObjectMember> objectMember(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  const FieldDecl *FD = userPointerField(E);
  if (!ME || !FD)
    return std::nullopt;
  if (ME->isArrow()) {
    const VarDecl *VD = asTrackedLocal(ME->getBase());
    if (VD && VD->getType()->isPointerType())
      return ObjectMember{VD, FD, true};
    return std::nullopt;
  }
  if (const VarDecl *VD = asLocalObject(ME->getBase()))
    return ObjectMember{VD, FD, false, isLocalObjectArray(VD)};
  return std::nullopt;
}

/// Forgets what this function stored into the fields of \p Base's object.
void forgetMembers(ProvenanceState &S, const VarDecl *Base) {
  for (auto It = S.Members.begin(); It != S.Members.end();)
    It = It->first.first == Base ? S.Members.erase(It) : std::next(It);
}

/// Forgets every field stored through a pointer: a call or a store through
/// another expression may have written them through an alias.
void forgetAliasedMembers(ProvenanceState &S, const FieldDecl *Only = nullptr) {
  for (auto It = S.Members.begin(); It != S.Members.end();)
    It = It->first.first->getType()->isPointerType() &&
                 (!Only || It->first.second == Only)
             ? S.Members.erase(It)
             : std::next(It);
}

/// The pointer \p E points into: 'p' for 'p', 'p + i', '&p[i]', under
/// casts.
const Expr *pointerBase(const Expr *E) {
  const Expr *Base = E->IgnoreParenCasts();
  while (true) {
    if (const auto *BO = dyn_cast<BinaryOperator>(Base);
        BO && BO->isAdditiveOp())
      Base = (BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                       : BO->getRHS())
                 ->IgnoreParenCasts();
    else if (const auto *UO = dyn_cast<UnaryOperator>(Base);
             UO && UO->getOpcode() == UO_AddrOf &&
             isa<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
      Base = cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens())
                 ->getBase()
                 ->IgnoreParenCasts();
    else
      break;
  }
  return Base;
}

/// True if \p S converts a pointer to an integer somewhere.
bool convertsPointer(const Stmt *S) {
  if (const auto *Cast = dyn_cast<CastExpr>(S))
    if (Cast->getCastKind() == CK_PointerToIntegral)
      return true;
  return llvm::any_of(S->children(), [](const Stmt *Child) {
    return Child && convertsPointer(Child);
  });
}

/// The one pointer an integer expression computes an address from, as
/// alignment macros do ('((size_t)p + a - 1) & ~(a - 1)'): integer casts,
/// '+', '-', '&', '|', '~' over one pointer cast to an integer and integers
/// that are not. Null for anything else (two pointers, a call, a load of an
/// integer variable that may hold an address).
const Expr *addressArithmeticBase(const Expr *E) {
  const Expr *Base = nullptr;
  llvm::SmallVector<const Expr *, 8> Work{E};
  while (!Work.empty()) {
    const Expr *Cur = Work.pop_back_val()->IgnoreParens();
    if (const auto *Cast = dyn_cast<CastExpr>(Cur)) {
      if (Cast->getCastKind() == CK_PointerToIntegral) {
        if (Base)
          return nullptr;
        Base = Cast->getSubExpr();
      } else if (Cast->getCastKind() == CK_IntegralCast ||
                 Cast->getCastKind() == CK_NoOp) {
        Work.push_back(Cast->getSubExpr());
      } else if (Cast->getCastKind() != CK_LValueToRValue ||
                 !Cast->getSubExpr()->getType()->isIntegerType()) {
        return nullptr;
      }
      // An integer variable's value: an offset or a mask.
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Cur)) {
      switch (BO->getOpcode()) {
      case BO_Add:
      case BO_Sub:
      case BO_And:
      case BO_Or:
        Work.push_back(BO->getLHS());
        Work.push_back(BO->getRHS());
        break;
      case BO_Mul:
      case BO_Div:
      case BO_Shl:
      case BO_Shr:
        // Only in the integer part: 'a * 2', 'n >> 12'.
        if (convertsPointer(BO))
          return nullptr;
        break;
      default:
        return nullptr;
      }
    } else if (const auto *UO = dyn_cast<UnaryOperator>(Cur)) {
      if (UO->getOpcode() != UO_Not && UO->getOpcode() != UO_Minus)
        return nullptr;
      Work.push_back(UO->getSubExpr());
    } else if (!isa<IntegerLiteral, UnaryExprOrTypeTraitExpr, ConstantExpr>(
                   Cur)) {
      return nullptr;
    }
  }
  return Base;
}

} // namespace

const ParmVarDecl *pointerParameterBase(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(pointerBase(E));
  const auto *PD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return PD && PD->getType()->isPointerType() ? PD : nullptr;
}

namespace {

/// The summarized global \p E points into (pointerBase): a global pointer
/// or an element of a global array of pointers. Null for anything else.
const VarDecl *globalBase(const Expr *E) {
  return dyn_cast_or_null<VarDecl>(summarizedVariable(pointerBase(E)));
}

/// A parameter a function can store a pointer through: T** or T*&.
bool isOutParameterType(QualType T) {
  if (const auto *Ref = T->getAs<ReferenceType>())
    return Ref->getPointeeType()->isPointerType() &&
           !Ref->getPointeeType().isConstQualified();
  return T->isPointerType() && T->getPointeeType()->isPointerType();
}

/// True for a __managed__ variable. clang drops the 'managed' attribute in
/// CUDA mode, so the declaration's spelling is read instead.
bool isManagedVariable(const VarDecl *VD) {
  if (VD->hasAttr<HIPManagedAttr>())
    return true;
  if (!VD->hasGlobalStorage())
    return false;
  const SourceManager &SM = VD->getASTContext().getSourceManager();
  SourceLocation Begin = SM.getExpansionLoc(VD->getBeginLoc());
  SourceLocation Name = SM.getExpansionLoc(VD->getLocation());
  if (SM.getFileID(Begin) != SM.getFileID(Name))
    return false;
  llvm::StringRef Spelling =
      Lexer::getSourceText(CharSourceRange::getCharRange(Begin, Name), SM,
                           VD->getASTContext().getLangOpts());
  for (size_t At = Spelling.find("__managed__"); At != llvm::StringRef::npos;
       At = Spelling.find("__managed__", At + 1)) {
    bool StartsWord = At == 0 || !isAsciiIdentifierContinue(Spelling[At - 1]);
    size_t End = At + llvm::StringRef("__managed__").size();
    bool EndsWord =
        End == Spelling.size() || !isAsciiIdentifierContinue(Spelling[End]);
    if (StartsWord && EndsWord)
      return true;
  }
  return false;
}

/// The index of the parameter argument \p Arg of \p Call binds to: member
/// operator calls pass the object as argument 0.
std::optional<unsigned> parameterIndex(const CallExpr *Call,
                                       const FunctionDecl *FD, unsigned Arg) {
  unsigned Offset =
      isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) ? 1 : 0;
  if (Arg < Offset || Arg - Offset >= FD->getNumParams())
    return std::nullopt;
  return Arg - Offset;
}

/// The cudaHostRegister call whose result \p E is: the call itself or a
/// local variable initialized with it.
const CallExpr *registerResult(
    const Expr *E,
    const llvm::DenseMap<const VarDecl *, const CallExpr *> &Results) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const ApiSpec *Api = lookupApi(Call);
    return Api && Api->Kind == ApiKind::Register ? Call : nullptr;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return Results.lookup(VD);
  return nullptr;
}

/// Locals whose address or a reference to them is kept somewhere the
/// dataflow cannot follow: stored, captured by reference, bound to a
/// reference variable. They are Unknown everywhere. An '&p' passed straight
/// to a call is not an escape: the call's transfer handles it.
class EscapeFinder : public RecursiveASTVisitor<EscapeFinder> {
public:
  llvm::DenseSet<const VarDecl *> Escaped;
  /// The summarized globals the function names, in order of first mention.
  llvm::SetVector<const VarDecl *> Globals;

  /// The expressions that allocate host memory: origins the function
  /// makes (Origin keys are the expressions themselves).
  llvm::DenseSet<const void *> AllocationSites;

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (isSummarizedGlobal(VD))
        Globals.insert(VD->getCanonicalDecl());
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr *New) {
    AllocationSites.insert(
        Origin(static_cast<const Stmt *>(New)).getOpaqueValue());
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    for (const Expr *Arg : Call->arguments()) {
      if (const Expr *Operand = addressOfOperand(Arg))
        PassedToCall.insert(Operand);
      DirectUses.insert(Arg->IgnoreParens());
    }
    const ApiSpec *Api = lookupApi(Call);
    if ((Api && Api->Kind == ApiKind::Allocate) ||
        isMakeSmartPointer(Call->getDirectCallee()))
      AllocationSites.insert(
          Origin(static_cast<const Stmt *>(Call)).getOpaqueValue());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() != UO_AddrOf)
      return true;
    const Expr *Operand = UO->getSubExpr()->IgnoreParens();
    if (PassedToCall.count(Operand))
      return true;
    if (const VarDecl *VD = asTrackedLocal(Operand))
      Escaped.insert(VD);
    if (const VarDecl *VD = asLocalObject(Operand))
      Escaped.insert(VD);
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *ASE) {
    DirectUses.insert(ASE->getBase()->IgnoreParens());
    return true;
  }
  /// 'Plan *p = plan': the array's elements may be written through p.
  bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
    if (Cast->getCastKind() == CK_ArrayToPointerDecay &&
        !DirectUses.count(Cast))
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (isLocalObjectArray(VD))
            Escaped.insert(VD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          Escaped.insert(VD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() && VD->getInit()) {
      if (const VarDecl *Target = asTrackedLocal(VD->getInit()))
        Escaped.insert(Target);
      if (const VarDecl *Target = asLocalObject(VD->getInit()))
        Escaped.insert(Target);
    }
    // 'cudaError_t err = cudaHostRegister(...)': err tells whether it worked.
    if (VD->hasLocalStorage() && VD->getInit())
      if (const CallExpr *Register =
              registerResult(VD->getInit(), RegisterResults))
        RegisterResults[VD] = Register;
    return true;
  }

  llvm::DenseMap<const VarDecl *, const CallExpr *> RegisterResults;

private:
  llvm::DenseSet<const Expr *> PassedToCall;
  /// Call arguments and subscript bases: where a local array of structs
  /// may decay without an alias the analysis cannot follow (a call's
  /// transfer forgets what it may write).
  llvm::DenseSet<const Expr *> DirectUses;
};

/// Evaluates expressions to PointerValues in one dataflow state.
class Evaluator {
public:
  Evaluator(const ProvenanceState &S,
            const llvm::DenseSet<const VarDecl *> &Escaped,
            SummaryProvider *Summaries, const FunctionDecl *Function)
      : S(S), Escaped(Escaped), Summaries(Summaries), Function(Function) {}

  /// What global \p VD holds here: what this function stored into it, or
  /// what it held when the function began.
  PointerValue global(const VarDecl *VD) const {
    if (!Summaries)
      return PointerValue::unknown();
    if (!Summaries->tracksGlobal(VD))
      return Summaries->stored(VD);
    if (auto It = S.Vars.find(VD); It != S.Vars.end())
      return It->second;
    return Summaries->globalAtEntry(VD, Function);
  }

  /// What the pointer value of \p E points to.
  PointerValue pointer(const Expr *E) const {
    E = E->IgnoreParens();
    // Callers may hand over an argument without its implicit conversions:
    // an lvalue array decays to its storage, an lvalue pointer is loaded.
    if (E->isGLValue())
      return E->getType()->isArrayType() ? storage(E) : loaded(E);
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      switch (Cast->getCastKind()) {
      case CK_ArrayToPointerDecay:
        return storage(Cast->getSubExpr());
      case CK_LValueToRValue:
        return loaded(Cast->getSubExpr());
      case CK_NullToPointer:
        return PointerValue::unset();
      case CK_IntegralToPointer:
        // '(float *)(((size_t)p + 4095) & ~4095)': p aligned, within p's
        // allocation.
        if (const Expr *Base = addressArithmeticBase(Cast->getSubExpr()))
          return pointer(Base);
        return PointerValue::unknown();
      default:
        return pointer(Cast->getSubExpr());
      }
    }
    if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
      return PointerValue::unset();
    if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(E))
      return pointer(Default->getExpr());
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_AddrOf)
        return storage(UO->getSubExpr());
      if (UO->isIncrementDecrementOp())
        return loaded(UO->getSubExpr());
      return PointerValue::unknown();
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
        return BO->isCompoundAssignmentOp() ? loaded(BO->getLHS())
                                            : pointer(BO->getRHS());
      if (BO->isAdditiveOp()) // p + n, n + p, p - n: same allocation.
        return pointer(BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                                : BO->getRHS());
      return PointerValue::unknown();
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
      return PointerValue::join(pointer(CO->getTrueExpr()),
                                pointer(CO->getFalseExpr()));
    if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
      // Only the replaceable global operator new: placement new reuses
      // storage of its own provenance.
      const FunctionDecl *Op = New->getOperatorNew();
      if (Op && Op->isReplaceableGlobalAllocationFunction() &&
          (New->getNumPlacementArgs() == 0 || isNothrowPlacement(New)))
        return PointerValue::known(MemoryKind::Pageable, New);
      return PointerValue::unknown();
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      return memberCall(MC);
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return call(Call);
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
      return pointer(Cleanups->getSubExpr());
    return PointerValue::unknown();
  }

  /// What a smart pointer is initialized or assigned from.
  PointerValue smartPointerSource(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
      return smartPointerSource(Cleanups->getSubExpr());
    if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
      return smartPointerSource(Temp->getSubExpr());
    if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
      return smartPointerSource(Bind->getSubExpr());
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (Construct->getNumArgs() == 0)
        return PointerValue::unset();
      const Expr *Arg = Construct->getArg(0);
      return isSmartPointer(Arg->getType()) ? smartPointerSource(Arg)
                                            : pointer(Arg);
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (isMakeSmartPointer(Call->getDirectCallee()))
        return PointerValue::known(MemoryKind::Pageable, Call);
    if (isa<CXXNullPtrLiteralExpr>(E))
      return PointerValue::unset();
    if (const VarDecl *VD = asTrackedLocal(E))
      return value(VD);
    return PointerValue::unknown();
  }

  /// The T** or T*& parameter \p E designates, unless it was reassigned.
  const ParmVarDecl *outParameter(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
    const auto *PD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!PD || !isOutParameterType(PD->getType()) || S.Vars.count(PD))
      return nullptr;
    return PD;
  }

  /// Keys of the registration facts for the memory \p E points to: its
  /// origins, or the unreassigned pointer parameter it is derived from.
  /// The program's answers its value was made from go to \p Made: a fact
  /// written under these keys, or not written, is read by lookups.
  llvm::SmallVector<const void *, 2>
  registrationKeys(const Expr *E, ProgramAnswers *Made = nullptr) const {
    PointerValue V = pointer(E);
    if (Made)
      addAnswers(*Made, V.answers());
    llvm::SmallVector<const void *, 2> Keys = originKeys(V);
    if (!Keys.empty())
      return Keys;
    if (const ParmVarDecl *PD = pointerParameterBase(E))
      if (!S.Vars.count(PD))
        Keys.push_back(PD);
    if (const VarDecl *VD = globalBase(E))
      if (keysByGlobal(VD))
        Keys.push_back(VD);
    return Keys;
  }

  /// True if a registration a call of \p Callee makes of what \p Arg
  /// points to (its registrationKeys) may be read later in this function;
  /// the answers its value was made from go to \p Made.
  bool registrationRead(const Expr *Arg, const FunctionDecl *Callee,
                        ProgramAnswers &Made) const {
    PointerValue V = pointer(Arg);
    addAnswers(Made, V.answers());
    if (!V.peekOrigins().empty())
      return !Summaries || llvm::any_of(V.peekOrigins(), [&](Origin O) {
        return Summaries->originRegistrationRead(O, Arg, Function, Callee);
      });
    if (const ParmVarDecl *PD = pointerParameterBase(Arg))
      if (!S.Vars.count(PD))
        return !Summaries ||
               Summaries->parameterRegistrationRead(PD, Arg, Function, Callee);
    if (const VarDecl *VD = globalBase(Arg))
      return keysByGlobal(VD);
    return false;
  }

  /// True if memory global \p VD holds, unknown here, can be named by the
  /// global itself: it holds the same throughout this function, which
  /// neither stores into it nor calls a function that does.
  bool keysByGlobal(const VarDecl *VD) const {
    return Summaries && Summaries->tracksGlobal(VD) &&
           !Summaries->mayStoreGlobal(Function, VD);
  }

  /// Keys of the registration facts for the memory global \p VD holds;
  /// the answers its value was made from go to \p Made.
  llvm::SmallVector<const void *, 2>
  globalRegistrationKeys(const VarDecl *VD, ProgramAnswers &Made) const {
    PointerValue V = global(VD);
    addAnswers(Made, V.answers());
    llvm::SmallVector<const void *, 2> Keys = originKeys(V);
    if (Keys.empty() && keysByGlobal(VD))
      Keys.push_back(VD);
    return Keys;
  }

  /// The registration keys of the allocations \p V may point into (its
  /// answers are the caller's to carry on).
  static llvm::SmallVector<const void *, 2> originKeys(const PointerValue &V) {
    llvm::SmallVector<const void *, 2> Keys;
    for (Origin O : V.peekOrigins())
      Keys.push_back(O.getOpaqueValue());
    return Keys;
  }

private:
  static bool isNothrowPlacement(const CXXNewExpr *New) {
    if (New->getNumPlacementArgs() != 1)
      return false;
    QualType T = New->getPlacementArg(0)->getType();
    const auto *RD = T->getAsCXXRecordDecl();
    return RD && RD->isInStdNamespace() && RD->getName() == "nothrow_t";
  }

  PointerValue value(const VarDecl *VD) const {
    if (Escaped.count(VD))
      return PointerValue::unknown();
    return S.get(VD);
  }

  /// The value a pointer lvalue holds.
  PointerValue loaded(const Expr *LValue) const {
    LValue = LValue->IgnoreParens();
    if (const VarDecl *VD = asTrackedLocal(LValue))
      return value(VD);
    // An element of a local array of pointers: the array's one summary.
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LValue))
      if (const VarDecl *VD = asTrackedLocal(ASE->getBase()))
        if (VD->getType()->isArrayType())
          return value(VD);
    // A field of one object this function stored into.
    if (std::optional<ObjectMember> M = objectMember(LValue))
      if (!Escaped.count(M->Base))
        if (auto It = S.Members.find({M->Base, M->Field});
            It != S.Members.end())
          return It->second;
    // A global: what this function stored, or what it began with. A
    // field: what every store in the translation unit put there.
    if (const ValueDecl *D = summarizedVariable(LValue)) {
      if (const auto *VD = dyn_cast<VarDecl>(D))
        return global(VD);
      return Summaries ? Summaries->stored(D) : PointerValue::unknown();
    }
    // A T*& parameter this function stored into.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(LValue))
      if (const auto *PD = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        if (PD->getType()->isReferenceType())
          if (auto It = S.Pointees.find(PD); It != S.Pointees.end())
            return It->second;
    // C++ lvalues that stand for another one: 'p = q', '++p', 'c ? p : q'.
    if (const auto *BO = dyn_cast<BinaryOperator>(LValue)) {
      if (BO->getOpcode() == BO_Assign)
        return pointer(BO->getRHS());
      if (BO->isCompoundAssignmentOp())
        return loaded(BO->getLHS());
      if (BO->getOpcode() == BO_Comma)
        return loaded(BO->getRHS());
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(LValue))
      if (UO->isIncrementDecrementOp())
        return loaded(UO->getSubExpr());
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(LValue))
      return PointerValue::join(loaded(CO->getTrueExpr()),
                                loaded(CO->getFalseExpr()));
    return PointerValue::unknown();
  }

  /// The provenance of the storage that lvalue \p E designates.
  PointerValue storage(const Expr *E) const {
    E = E->IgnoreParens();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || VD->getType()->isReferenceType())
        return PointerValue::unknown();
      // CUDA variables: __device__/__constant__ live on the device,
      // __managed__ is unified memory.
      if (isManagedVariable(VD))
        return PointerValue::known(MemoryKind::Managed, VD);
      if (VD->hasAttr<CUDADeviceAttr>() || VD->hasAttr<CUDAConstantAttr>())
        return PointerValue::known(MemoryKind::Device, VD);
      // Stack, static and thread storage of host variables is pageable.
      return PointerValue::known(MemoryKind::Pageable, VD);
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      return pointer(ASE->getBase());
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (const PointerValue Own = thisMember(ME); Own.isKnown())
        return Own;
      return ME->isArrow() ? pointer(ME->getBase()) : storage(ME->getBase());
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return UO->getOpcode() == UO_Deref ? pointer(UO->getSubExpr())
                                         : PointerValue::unknown();
    if (isa<StringLiteral>(E))
      return PointerValue::known(MemoryKind::Pageable, E);
    // v[i] on a container: its storage.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
      if (Op->getOperator() == OO_Subscript && Op->getNumArgs() > 0)
        return container(Op->getArg(0));
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      return memberCall(MC);
    return PointerValue::unknown();
  }

  /// '&count_' in a member function: a data member of '*this', an object
  /// in host memory (the heap, the stack, a global), pageable. Not when the
  /// class or a base declares its own operator new (the unified-memory
  /// "Managed" base class allocates with cudaMallocManaged).
  PointerValue thisMember(const MemberExpr *ME) const {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || !ME->isArrow() ||
        !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return PointerValue::unknown();
    const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
    if (!RD || !RD->hasDefinition() || declaresOperatorNew(RD))
      return PointerValue::unknown();
    return PointerValue::known(MemoryKind::Pageable, FD);
  }

  static bool declaresOperatorNew(const CXXRecordDecl *RD) {
    for (const Decl *D : RD->decls()) {
      const FunctionDecl *FD = D->getAsFunction();
      if (FD && (FD->getOverloadedOperator() == OO_New ||
                 FD->getOverloadedOperator() == OO_Array_New))
        return true;
    }
    for (const CXXBaseSpecifier &Base : RD->bases())
      if (const CXXRecordDecl *B = Base.getType()->getAsCXXRecordDecl())
        if (!B->hasDefinition() || declaresOperatorNew(B))
          return true;
    return false;
  }

  /// The storage a std container object owns: a local container's, and
  /// that of any std::vector or std::string with the default allocator,
  /// whichever variable, reference or data member names it (the heap
  /// memory std::allocator returns is pageable).
  PointerValue container(const Expr *Object) const {
    const Expr *E = Object->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (VD && ((!VD->getType()->isReferenceType() &&
                  isPageableContainer(VD->getType())) ||
                 isPageableHeapContainer(VD->getType())))
        return PointerValue::known(MemoryKind::Pageable, VD);
      return PointerValue::unknown();
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        if (isPageableHeapContainer(FD->getType()))
          return PointerValue::known(MemoryKind::Pageable, FD);
    return PointerValue::unknown();
  }

  /// v.data(), s.c_str(), v.front(), v.at(i), p.get(), and calls of methods
  /// with summaries.
  PointerValue memberCall(const CXXMemberCallExpr *MC) const {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Object = MC->getImplicitObjectArgument();
    if (!MD || !Object)
      return PointerValue::unknown();
    llvm::StringRef Name = MD->getIdentifier() ? MD->getName() : "";
    if ((isPageableContainer(Object->getType()) ||
         isPageableHeapContainer(Object->getType())) &&
        (Name == "data" || Name == "c_str" || Name == "front" ||
         Name == "back" || Name == "at"))
      return container(Object);
    if (isSmartPointer(Object->getType())) {
      if (Name == "get")
        if (const VarDecl *VD = asTrackedLocal(Object))
          return value(VD);
      return PointerValue::unknown();
    }
    return call(MC);
  }

  PointerValue call(const CallExpr *Call) const {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (const ApiSpec *Api = lookupApi(Call))
      if (Api->Kind == ApiKind::Allocate && !Api->argIndex(ArgRole::Out))
        return PointerValue::known(*Api->Memory, Call);
    // std::addressof(x) is &x.
    if (FD && FD->isInStdNamespace() && FD->getIdentifier() &&
        FD->getName() == "addressof" && Call->getNumArgs() == 1)
      return storage(Call->getArg(0));
    if (FD && Summaries) {
      // Of another unit's function: made from the program's answer (none
      // yet is unknown too), recorded where it is read.
      std::optional<unsigned> Answer = Summaries->returnAnswer(FD);
      PointerValue V = PointerValue::unknown();
      if (const FunctionSummary *Summary = Summaries->summary(FD))
        V = Summary->Returns;
      return Answer ? V.madeFrom({*Answer}) : V;
    }
    return PointerValue::unknown();
  }

  const ProvenanceState &S;
  const llvm::DenseSet<const VarDecl *> &Escaped;
  SummaryProvider *Summaries;
  const FunctionDecl *Function;
};

/// The transfer functions over CFG elements.
class ProvenanceDataflow {
public:
  using State = ProvenanceState;

  ProvenanceDataflow(
      const llvm::DenseSet<const VarDecl *> &Escaped,
      const llvm::DenseMap<const VarDecl *, const CallExpr *> &RegisterResults,
      SummaryProvider *Summaries, const FunctionDecl *Function,
      llvm::ArrayRef<const VarDecl *> Globals,
      const llvm::DenseSet<const void *> &AllocationSites)
      : Escaped(Escaped), RegisterResults(RegisterResults),
        Summaries(Summaries), Function(Function), Globals(Globals),
        AllocationSites(AllocationSites) {}

  /// The globals the function names start with what they hold on entry.
  State entryState() const {
    State S;
    if (Summaries)
      for (const VarDecl *VD : Globals)
        if (Summaries->tracksGlobal(VD))
          S.Vars.insert_or_assign(VD, Summaries->globalAtEntry(VD, Function));
    return S;
  }
  void join(State &Into, const State &From) const {
    Into.join(From, AllocationSites);
  }
  Evaluator evaluator(const State &S) const {
    return Evaluator(S, Escaped, Summaries, Function);
  }

  void transfer(const CFGElement &Element, State &S) const {
    // A local whose scope ended can never be read again (escaped locals are
    // never read from the state): dropping it keeps the state as small as
    // the variables in scope, not every variable of the function.
    if (std::optional<CFGLifetimeEnds> End = Element.getAs<CFGLifetimeEnds>()) {
      S.Vars.erase(End->getVarDecl());
      forgetMembers(S, End->getVarDecl());
      return;
    }
    std::optional<CFGStmt> CS = Element.getAs<CFGStmt>();
    if (!CS)
      return;
    const Stmt *St = CS->getStmt();
    Evaluator Eval = evaluator(S);
    // Memory just allocated is not registered.
    if (AllocationSites.count(St))
      S.Registered.insert_or_assign(
          St, RegistrationFact{Registration::No, nullptr, /*Fresh=*/true});
    if (const auto *DS = dyn_cast<DeclStmt>(St)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D)) {
          if (VD->hasLocalStorage() && isTrackedType(VD->getType()))
            S.Vars.insert_or_assign(VD, initialValue(VD, Eval));
          if (isLocalObjectArray(VD))
            startObjectArray(VD, S);
        }
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
      if (BO->getOpcode() == BO_Assign)
        assign(BO->getLHS(), Eval.pointer(BO->getRHS()), S);
      return;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(St)) {
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
          isSmartPointer(Op->getArg(0)->getType())) {
        assign(Op->getArg(0), Eval.smartPointerSource(Op->getArg(1)), S);
        return;
      }
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(St)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      const Expr *Object = MC->getImplicitObjectArgument();
      if (MD && MD->getIdentifier() && MD->getName() == "reset" && Object &&
          isSmartPointer(Object->getType())) {
        assign(Object,
               MC->getNumArgs() ? Eval.pointer(MC->getArg(0))
                                : PointerValue::unset(),
               S);
        return;
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(St))
      call(Call, S);
  }

  /// Follows only the paths where each of \p Flags is true if its bit of
  /// \p Values is set, false otherwise.
  void assume(llvm::ArrayRef<FixedFlag> Flags, unsigned Values) {
    Assumed = Flags;
    AssumedValues = Values;
  }

  /// No path takes an edge of a test of an assumed flag that disagrees
  /// with its value.
  ///
  /// On the branch where a cudaHostRegister call reported failure, nothing
  /// was registered: 'if (cudaHostRegister(p, n, 0) != cudaSuccess)',
  /// 'if (err)', 'if (err == cudaSuccess)' (its false branch), '!err'.
  bool transferEdge(const CFGBlock &From, unsigned SuccIndex, State &S) const {
    for (size_t I = 0; I < Assumed.size(); ++I)
      if (!Assumed[I].feasible(From, SuccIndex, AssumedValues >> I & 1))
        return false;
    const Expr *Cond = branchCondition(From);
    if (!Cond)
      return true;
    unsigned FailureEdge = 0; // The true branch, for 'if (result)'.
    const Expr *Result = Cond;
    if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
        UO && UO->getOpcode() == UO_LNot) {
      Result = UO->getSubExpr();
      FailureEdge = 1;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
               BO && BO->isEqualityOp()) {
      const Expr *Other = BO->getRHS();
      Result = BO->getLHS();
      if (cudaErrorCode(Other) != CudaErrorCode::Success) {
        std::swap(Result, Other);
        if (cudaErrorCode(Other) != CudaErrorCode::Success)
          return true;
      }
      FailureEdge = BO->getOpcode() == BO_NE ? 0 : 1;
    }
    const CallExpr *Register = registerResult(Result, RegisterResults);
    if (!Register || SuccIndex != FailureEdge)
      return true;
    if (const Expr *Ptr = lookupApi(Register)->arg(Register, ArgRole::Ptr))
      for (const void *Key :
           evaluator(S).registrationKeys(Ptr, &S.RegistrationAnswers))
        S.Registered.insert_or_assign(Key, RegistrationFact{});
    return true;
  }

  /// What a call stores through its argument \p Arg: an allocator's or a
  /// summarized function's out-parameter. std::nullopt if nothing.
  std::optional<PointerValue> storedThrough(const CallExpr *Call,
                                            unsigned Arg) const {
    const ApiSpec *Api = lookupApi(Call);
    if (Api && Api->Kind == ApiKind::Allocate) {
      std::optional<unsigned> Out = Api->argIndex(ArgRole::Out);
      if (Out && *Out == Arg)
        return PointerValue::known(*Api->Memory, Call);
      return std::nullopt;
    }
    const FunctionDecl *FD = Call->getDirectCallee();
    if (Api || !FD || !Summaries)
      return std::nullopt;
    const FunctionSummary *Summary = Summaries->summary(FD);
    std::optional<unsigned> P = parameterIndex(Call, FD, Arg);
    if (P)
      Summaries->noteOutParam(FD, *P);
    if (!Summary || !P || *P >= Summary->OutParams.size())
      return std::nullopt;
    return Summary->OutParams[*P];
  }

private:
  /// A local array of plain structs declared without pointers in its
  /// initializer: every pointer field starts null (or indeterminate), so
  /// the first stores into its elements say what they hold.
  void startObjectArray(const VarDecl *VD, State &S) const {
    const RecordDecl *RD =
        VD->getType()->getPointeeOrArrayElementType()->getAsRecordDecl();
    const auto *CXX = dyn_cast_or_null<CXXRecordDecl>(RD);
    if (!RD || (CXX && !CXX->hasTrivialDefaultConstructor()))
      return;
    if (const Expr *Init = VD->getInit()) {
      Init = Init->IgnoreParenImpCasts();
      const auto *List = dyn_cast<InitListExpr>(Init);
      const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
      if (!(List && List->getNumInits() == 0) &&
          !(Construct && Construct->getConstructor()->isTrivial()) &&
          !isa<ImplicitValueInitExpr>(Init))
        return;
    }
    for (const FieldDecl *FD : RD->fields())
      if (isSummarizedField(FD))
        S.Members.insert_or_assign({VD, FD}, PointerValue::unset());
  }

  PointerValue initialValue(const VarDecl *VD, const Evaluator &Eval) const {
    const Expr *Init = VD->getInit();
    if (!Init)
      return PointerValue::unset();
    if (isSmartPointer(VD->getType()))
      return Eval.smartPointerSource(Init);
    if (VD->getType()->isArrayType())
      return PointerValue::unknown(); // an initializer list of pointers
    return Eval.pointer(Init);
  }

  /// Stores \p V into the lvalue \p LHS: a strong update of a local pointer,
  /// a weak update (join) of an element of a local array of pointers, the
  /// pointee of an out-parameter ('*out = p', 'out[0] = p', 'ref = p').
  /// Fields are summarized separately (see FunctionProvenance).
  void assign(const Expr *LHS, PointerValue V, State &S) const {
    LHS = LHS->IgnoreParenImpCasts();
    // A global this function tracks: a strong update of a pointer, a weak
    // one of an element of an array of pointers.
    if (const auto *VD = dyn_cast_or_null<VarDecl>(summarizedVariable(LHS))) {
      if (Summaries && Summaries->tracksGlobal(VD))
        S.Vars.insert_or_assign(
            VD, VD->getType()->isArrayType()
                    ? PointerValue::join(evaluator(S).global(VD), V)
                    : std::move(V));
      return;
    }
    if (const VarDecl *VD = asTrackedLocal(LHS)) {
      if (!VD->getType()->isArrayType())
        S.Vars.insert_or_assign(VD, std::move(V));
      // Another object now: what was stored through it is not its.
      forgetMembers(S, VD);
      return;
    }
    if (const FieldDecl *FD = userPointerField(LHS)) {
      std::optional<ObjectMember> M = objectMember(LHS);
      // A store through any other pointer may write the same object.
      if (!M || M->Arrow)
        forgetAliasedMembers(S, FD);
      if (M && !Escaped.count(M->Base)) {
        if (M->Element) {
          auto It = S.Members.find({M->Base, M->Field});
          V = PointerValue::join(It != S.Members.end() ? It->second
                                 : Summaries ? Summaries->stored(M->Field)
                                             : PointerValue::unknown(),
                                 V);
        }
        S.Members.insert_or_assign({M->Base, M->Field}, std::move(V));
      }
      return;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LHS)) {
      if (const VarDecl *VD = asTrackedLocal(ASE->getBase())) {
        if (VD->getType()->isArrayType())
          S.Vars.insert_or_assign(VD, PointerValue::join(S.get(VD), V));
        return;
      }
      if (const ParmVarDecl *PD = evaluator(S).outParameter(ASE->getBase()))
        S.Pointees.insert_or_assign(PD, std::move(V));
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(LHS)) {
      if (UO->getOpcode() == UO_Deref)
        if (const ParmVarDecl *PD = evaluator(S).outParameter(UO->getSubExpr()))
          S.Pointees.insert_or_assign(PD, std::move(V));
      return;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS))
      if (const auto *PD = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        if (PD->getType()->isReferenceType() &&
            isOutParameterType(PD->getType()))
          S.Pointees.insert_or_assign(PD, std::move(V));
  }

  /// Stores \p V through the out-parameter argument \p Arg: '&p', '&a[i]',
  /// a T** parameter passed on, or a T*& argument.
  void storeThrough(const Expr *Arg, bool ByReference, PointerValue V,
                    State &S) const {
    if (ByReference) {
      assign(Arg, std::move(V), S);
      return;
    }
    if (const Expr *Target = addressOfOperand(Arg)) {
      assign(Target, std::move(V), S);
      return;
    }
    if (const ParmVarDecl *PD = evaluator(S).outParameter(Arg))
      S.Pointees.insert_or_assign(PD, std::move(V));
  }

  void setRegistration(const Expr *Ptr, Registration R, const CallExpr *By,
                       State &S) const {
    setRegistration(evaluator(S).registrationKeys(Ptr, &S.RegistrationAnswers),
                    R, By, S);
  }

  void setRegistration(llvm::ArrayRef<const void *> Keys, Registration R,
                       const CallExpr *By, State &S) const {
    // Unregistering memory the analysis cannot name may unregister any.
    if (Keys.empty() && R == Registration::No)
      forgetRegistrations(S);
    for (const void *Key : Keys)
      S.Registered.insert_or_assign(
          Key, RegistrationFact{R, R == Registration::Yes ? By : nullptr});
  }

  /// Every registration may have been undone; the mark says so to callers.
  static void forgetRegistrations(State &S) {
    for (auto &[Key, Fact] : S.Registered)
      if (Fact.R == Registration::Yes)
        Fact = RegistrationFact{Registration::Maybe, nullptr};
    S.Registered.insert_or_assign(UnknownUnregistration,
                                  RegistrationFact{Registration::Maybe});
  }

  /// True if a callee may store anything through \p Arg: '&x' of a tracked
  /// local or a summarized global, or a tracked local bound to a non-const
  /// reference (\p MutableReference).
  static bool isClobberable(const Expr *Arg, bool MutableReference) {
    if (const Expr *Target = addressOfOperand(Arg))
      return asTrackedLocal(Target) ||
             isa_and_nonnull<VarDecl>(summarizedVariable(Target));
    return MutableReference && asTrackedLocal(Arg);
  }

  /// Anything was stored through \p Arg (isClobberable).
  void clobber(const Expr *Arg, State &S) const {
    if (const Expr *Target = addressOfOperand(Arg)) {
      if (const VarDecl *VD = asTrackedLocal(Target))
        S.Vars.insert_or_assign(VD, PointerValue::unknown());
      else if (isa_and_nonnull<VarDecl>(summarizedVariable(Target)))
        assign(Target, PointerValue::unknown(), S);
      return;
    }
    if (const VarDecl *VD = asTrackedLocal(Arg))
      S.Vars.insert_or_assign(VD, PointerValue::unknown());
  }

  void call(const CallExpr *Call, State &S) const {
    const ApiSpec *Api = lookupApi(Call);
    const FunctionDecl *FD = Call->getDirectCallee();
    if (Api &&
        (Api->Kind == ApiKind::Register || Api->Kind == ApiKind::Unregister)) {
      // cudaHostRegister page-locks the allocation the pointer points into;
      // cudaHostUnregister releases it.
      if (const Expr *Ptr = Api->arg(Call, ArgRole::Ptr))
        setRegistration(Ptr,
                        Api->Kind == ApiKind::Register ? Registration::Yes
                                                       : Registration::No,
                        Call, S);
      return;
    }
    // A call may write the fields of any object it can reach: through a
    // pointer it is given or one that aliases it, or a local object passed
    // by address or reference, or whose method it is.
    if (!S.Members.empty()) {
      // The CUDA API writes no pointer fields but through the out-parameter
      // of an allocator (storedThrough).
      if (!Api)
        forgetAliasedMembers(S);
      for (const Expr *Arg : Call->arguments()) {
        const Expr *Object = addressOfOperand(Arg);
        if (const VarDecl *VD = asLocalObject(Object ? Object : Arg))
          forgetMembers(S, VD);
      }
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
        if (const VarDecl *VD = asLocalObject(MC->getImplicitObjectArgument()))
          forgetMembers(S, VD);
    }
    const FunctionSummary *Summary =
        !Api && FD && Summaries ? Summaries->summary(FD) : nullptr;
    // What the call does to each argument (CallEffects.h), from what the
    // caller knows of each before the call: its shape.
    CallShape Shape;
    Shape.OpaqueWithoutSummary =
        !Api && Summaries && (!FD || Summaries->isOpaque(FD));
    // The answers of the values whose keys the shape looked at: which
    // registrations the call writes depends on them.
    ProgramAnswers Keying;
    // Whether the callee may store a pointer through an argument.
    bool StoresThrough = false;
    std::vector<bool> ByReference(Call->getNumArgs());
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      std::optional<unsigned> P =
          FD ? parameterIndex(Call, FD, I) : std::nullopt;
      QualType Param = P ? FD->getParamDecl(*P)->getType() : QualType();
      ByReference[I] = P && Param->isReferenceType();
      // A number names no memory: no registration of it to read.
      bool Scalar = Arg->getType()->isArithmeticType() ||
                    Arg->getType()->isEnumeralType();
      ArgumentShape A{
          P, Arg->getType()->isPointerType(),
          !Scalar &&
              (FD ? evaluator(S).registrationRead(Arg, FD, Keying)
                  : !evaluator(S).registrationKeys(Arg, &Keying).empty()),
          isClobberable(Arg,
                        ByReference[I] &&
                            !Param.getNonReferenceType().isConstQualified())};
      StoresThrough |= A.Clobberable || (P && isOutParameterType(Param));
      Shape.Args.push_back(A);
    }
    // A callee of another unit: the answer to what this call does is
    // recorded where what it changed is read: a pointer it stores through
    // an argument (the question is recorded now), a registration (the
    // state carries the answer to every registration lookup).
    std::optional<unsigned> Answer =
        !Api && FD && Summaries
            ? Summaries->callAnswer(FD, Shape, /*Now=*/StoresThrough)
            : std::nullopt;
    addAnswers(S.RegistrationAnswers, Keying);
    if (Answer)
      addAnswers(S.RegistrationAnswers, {*Answer});
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      ArgumentEffect E;
      if (Api) {
        // The CUDA API stores only through an allocator's out-parameter.
        if (std::optional<PointerValue> Stored = storedThrough(Call, I))
          E.Stores = std::move(Stored);
        else
          E.Clobbers = Shape.Args[I].Clobberable;
      } else {
        E = argumentEffect(Summary, Shape.OpaqueWithoutSummary, Shape.Args[I]);
      }
      if (E.Stores)
        storeThrough(Arg, ByReference[I],
                     Answer ? E.Stores->madeFrom({*Answer}) : *E.Stores, S);
      if (E.Registers)
        setRegistration(Arg, *E.Registers, Call, S);
      if (E.Clobbers)
        clobber(Arg, S);
    }
    if (Summary) {
      // A summary of this unit carries the answers its registrations were
      // made from.
      addAnswers(S.RegistrationAnswers, Summary->RegistrationAnswers);
      if (Summary->ExitRegistration.count(UnknownUnregistration))
        forgetRegistrations(S);
      for (const auto &[Key, Fact] : Summary->ExitRegistration)
        S.Registered.insert_or_assign(Key, Fact);
      for (const auto &[VD, R] : Summary->RegistersGlobal)
        setRegistration(
            evaluator(S).globalRegistrationKeys(VD, S.RegistrationAnswers), R,
            Call, S);
    }
    // A function of this unit may store into the globals it tracks; the
    // rest of the program cannot name them (SummaryProvider::tracksGlobal).
    if (!Api && Summaries)
      for (auto &[VD, V] : S.Vars)
        if (VD->hasGlobalStorage() &&
            (!FD || Summaries->mayStoreGlobal(FD, VD)))
          V = Summaries->stored(VD);
  }

  const llvm::DenseSet<const VarDecl *> &Escaped;
  const llvm::DenseMap<const VarDecl *, const CallExpr *> &RegisterResults;
  SummaryProvider *Summaries;
  const FunctionDecl *Function;
  llvm::ArrayRef<const VarDecl *> Globals;
  /// The allocating expressions of the function (isAllocationSite).
  const llvm::DenseSet<const void *> &AllocationSites;
  llvm::ArrayRef<FixedFlag> Assumed;
  unsigned AssumedValues = 0;
};

/// The part of \p S that evaluating pointers within \p At can read: the
/// variables \p At names, their members, and the registration facts of
/// what they may point to. A copy of the whole state at every call would
/// make long functions quadratic.
static ProvenanceState snapshotFor(const ProvenanceState &S, const Stmt *At) {
  llvm::SmallPtrSet<const VarDecl *, 8> Named;
  // Registration keys: origins (allocations, variables) and parameters.
  llvm::SmallPtrSet<const void *, 16> Keys;
  llvm::SmallVector<const Stmt *, 16> Work{At};
  while (!Work.empty()) {
    const Stmt *Cur = Work.pop_back_val();
    if (!Cur)
      continue;
    Keys.insert(Origin(Cur).getOpaqueValue());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Cur))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Named.insert(VD->getCanonicalDecl()); // Globals are kept so.
    llvm::append_range(Work, Cur->children());
  }
  ProvenanceState Part;
  auto Keep = [&](const PointerValue &V) {
    for (Origin O : V.peekOrigins())
      Keys.insert(O.getOpaqueValue());
  };
  for (const VarDecl *VD : Named) {
    Keys.insert(VD);
    Keys.insert(Origin(static_cast<const Decl *>(VD)).getOpaqueValue());
    if (auto It = S.Vars.find(VD); It != S.Vars.end()) {
      Part.Vars.insert(*It);
      Keep(It->second);
    }
    if (const auto *PD = dyn_cast<ParmVarDecl>(VD))
      if (auto It = S.Pointees.find(PD); It != S.Pointees.end()) {
        Part.Pointees.insert(*It);
        Keep(It->second);
      }
  }
  for (const auto &Entry : S.Members)
    if (Named.count(Entry.first.first)) {
      Part.Members.insert(Entry);
      Keep(Entry.second);
    }
  for (const auto &Entry : S.Registered)
    if (Keys.count(Entry.first))
      Part.Registered.insert(Entry);
  Part.RegistrationAnswers = S.RegistrationAnswers;
  return Part;
}

/// Records, while the reporting pass replays a block, the state before each
/// CUDA API call and delete expression (the part of it the call's pointers
/// can read), the values returned, and the values stored into fields.
class Recorder {
public:
  Recorder(const ProvenanceDataflow &Dataflow,
           std::map<const CallExpr *, std::vector<PointerValue>> &Arguments,
           std::map<const Stmt *, ProvenanceState> &StateAt,
           std::map<const ValueDecl *, PointerValue> &Stores,
           PointerValue &Returns, bool ProgramCalls)
      : Dataflow(Dataflow), StateAt(StateAt), Arguments(Arguments),
        Stores(Stores), Returns(Returns), ProgramCalls(ProgramCalls) {}

  void observe(const CFGElement &Element, const ProvenanceState &S) {
    Evaluator Eval = Dataflow.evaluator(S);
    if (std::optional<CFGInitializer> CI = Element.getAs<CFGInitializer>()) {
      const CXXCtorInitializer *Init = CI->getInitializer();
      if (const FieldDecl *FD = Init->getAnyMember())
        if (isSummarizedField(FD))
          store(FD, Init->getInit(), Eval);
      return;
    }
    std::optional<CFGStmt> CS = Element.getAs<CFGStmt>();
    if (!CS)
      return;
    const Stmt *St = CS->getStmt();
    if (const auto *Call = dyn_cast<CallExpr>(St)) {
      if (lookupApi(Call))
        record(Call, S);
      // What a call of a function whose callers are all here (or in the
      // program's summaries) passes in pointers: the callee's parameters
      // may take it (parameter()).
      if (takesCallSiteProvenance(Call->getDirectCallee()) ||
          (ProgramCalls && takesProgramCallSites(Call->getDirectCallee()))) {
        std::vector<PointerValue> Values;
        for (const Expr *Arg : Call->arguments())
          Values.push_back(Arg->getType()->isPointerType()
                               ? Eval.pointer(Arg)
                               : PointerValue::unknown());
        // Another run (a value of a fixed flag) passed these too.
        auto [It, New] = Arguments.try_emplace(Call, Values);
        if (!New)
          for (size_t I = 0; I < Values.size(); ++I)
            It->second[I] = PointerValue::join(It->second[I], Values[I]);
      }
      // '&field' or '&global' handed to a call: stored through, or escaped.
      for (unsigned I = 0; I < Call->getNumArgs(); ++I)
        if (const Expr *Target = addressOfOperand(Call->getArg(I)))
          if (const ValueDecl *D = summarizedVariable(Target))
            store(D, Dataflow.storedThrough(Call, I).value_or(
                         PointerValue::unknown()));
      return;
    }
    if (isa<CXXDeleteExpr>(St)) {
      record(St, S);
      return;
    }
    if (const auto *Return = dyn_cast<ReturnStmt>(St)) {
      if (const Expr *Value = Return->getRetValue())
        if (Value->getType()->isPointerType())
          Returns = PointerValue::join(Returns, Eval.pointer(Value));
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
      if (BO->getOpcode() == BO_Assign)
        if (const ValueDecl *D = summarizedVariable(BO->getLHS()))
          store(D, BO->getRHS(), Eval);
      return;
    }
    if (const auto *List = dyn_cast<InitListExpr>(St)) {
      const RecordDecl *RD = List->getType()->getAsRecordDecl();
      if (!RD || List->isTransparent())
        return;
      unsigned I = 0;
      for (const FieldDecl *FD : RD->fields()) {
        if (I >= List->getNumInits())
          break;
        const Expr *Init = List->getInit(I++);
        if (isSummarizedField(FD))
          store(FD, Eval.pointer(Init));
      }
    }
  }

private:
  /// The state before \p At, joined with what another run (a value of a
  /// fixed flag) saw there.
  void record(const Stmt *At, const ProvenanceState &S) {
    ProvenanceState Part = snapshotFor(S, At);
    auto [It, New] = StateAt.try_emplace(At, Part);
    if (!New)
      Dataflow.join(It->second, Part);
  }

  /// Stores the value of \p Value into \p D, unless it copies the same
  /// field of another object (copy constructors and assignments), which
  /// adds nothing to the field's provenance.
  void store(const ValueDecl *D, const Expr *Value, const Evaluator &Eval) {
    if (summarizedVariable(Value) == D)
      return;
    store(D, Eval.pointer(Value));
  }

  void store(const ValueDecl *D, PointerValue V) {
    auto It = Stores.find(D);
    Stores.insert_or_assign(
        D, PointerValue::join(
               It == Stores.end() ? PointerValue::unset() : It->second, V));
  }

  const ProvenanceDataflow &Dataflow;
  std::map<const Stmt *, ProvenanceState> &StateAt;
  std::map<const CallExpr *, std::vector<PointerValue>> &Arguments;
  std::map<const ValueDecl *, PointerValue> &Stores;
  PointerValue &Returns;
  /// Calls of external functions are recorded too: the program's
  /// summaries are being made, or are whole.
  bool ProgramCalls;
};

} // namespace

bool isSummarizedField(const FieldDecl *FD) {
  return FD && FD->getType()->isPointerType() &&
         !FD->getASTContext().getSourceManager().isInSystemHeader(
             FD->getLocation());
}

const FieldDecl *userPointerField(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  return isSummarizedField(FD) ? FD : nullptr;
}

bool isSummarizedGlobal(const VarDecl *VD) {
  if (!VD || !VD->hasGlobalStorage() || isa<ParmVarDecl>(VD))
    return false;
  QualType T = VD->getType();
  bool Pointers = T->isPointerType() ||
                  (T->isConstantArrayType() &&
                   T->getPointeeOrArrayElementType()->isPointerType() &&
                   !T->getArrayElementTypeNoTypeQual()->isArrayType());
  // Device-side variables hold device addresses the host never stores.
  return Pointers && !VD->hasAttr<CUDADeviceAttr>() &&
         !VD->hasAttr<CUDAConstantAttr>() && !VD->hasAttr<CUDASharedAttr>() &&
         !isManagedVariable(VD) &&
         !VD->getASTContext().getSourceManager().isInSystemHeader(
             VD->getLocation());
}

const ValueDecl *summarizedVariable(const Expr *E) {
  if (const FieldDecl *FD = userPointerField(E))
    return FD;
  bool Element;
  const VarDecl *VD = namedVariable(E, Element);
  // 'g' names a global pointer; 'g[i]' an element of a global array of
  // pointers, all of whose elements share one summary.
  if (!isSummarizedGlobal(VD) || VD->getType()->isArrayType() != Element)
    return nullptr;
  return VD->getCanonicalDecl();
}

/// At most this many fixed flags split a function's analysis (2^N runs).
constexpr size_t MaxSplitFlags = 3;

FunctionProvenance::FunctionProvenance(const FunctionDecl *FD, ASTContext &Ctx,
                                       SummaryProvider *Summaries)
    : Summaries(Summaries), SM(&Ctx.getSourceManager()), Function(FD) {
  Stmt *Body = FD->getBody();
  if (!Body)
    return;
  EscapeFinder Finder;
  Finder.TraverseStmt(Body);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      Finder.TraverseStmt(Init->getInit());
  Escaped = std::move(Finder.Escaped);
  RegisterResults = std::move(Finder.RegisterResults);

  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  Options.AddInitializers = true;
  Options.AddLifetime = true;
  std::unique_ptr<CFG> Cfg = CFG::buildCFG(FD, Body, &Ctx, Options);
  if (!Cfg)
    return;
  ProvenanceDataflow Dataflow(Escaped, RegisterResults, Summaries, FD,
                              Finder.Globals.getArrayRef(),
                              Finder.AllocationSites);
  // Flags tested twice with one value at every test split the analysis:
  // one run per combination of their values, where their tests take only
  // those values' edges, and what the runs record is joined.
  std::vector<FixedFlag> Flags = FixedFlag::find(
      FD, *Cfg, Ctx,
      [&](const VarDecl *VD) {
        return Summaries && Summaries->writtenOnlyByMain(VD);
      },
      MaxSplitFlags);
  PointerValue Returns = PointerValue::unset();
  Recorder Record(Dataflow, Arguments, StateAt, Stores, Returns,
                  Summaries && Summaries->recordsProgramCalls());
  std::optional<ProvenanceState> Exit;
  for (unsigned Values = 0; Values < 1u << Flags.size(); ++Values) {
    Dataflow.assume(Flags, Values);
    std::vector<std::optional<ProvenanceState>> In =
        solveForward(*Cfg, Dataflow);
    // Reporting pass: replay each reached block from its fixpoint in-state.
    for (const CFGBlock *B : *Cfg) {
      const std::optional<ProvenanceState> &BlockIn = In[B->getBlockID()];
      if (!BlockIn)
        continue;
      ProvenanceState S = *BlockIn;
      for (const CFGElement &E : *B) {
        Record.observe(E, S);
        Dataflow.transfer(E, S);
      }
    }
    // What callers see: the state where every path returns.
    if (std::optional<ProvenanceState> &End = In[Cfg->getExit().getBlockID()];
        End && Exit)
      Dataflow.join(*Exit, *End);
    else if (End)
      Exit = std::move(End);
  }
  if (!Exit)
    return;
  Summary.Returns = Returns;
  Summary.RegistrationAnswers = Exit->RegistrationAnswers;
  Summary.OutParams.resize(FD->getNumParams());
  Summary.RegistersParam.resize(FD->getNumParams());
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *PD = FD->getParamDecl(I);
    if (auto It = Exit->Pointees.find(PD); It != Exit->Pointees.end())
      Summary.OutParams[I] = It->second;
    if (const RegistrationFact *F = Exit->registration(PD))
      Summary.RegistersParam[I] = F->R;
  }
  // The registration of every allocation it touched: what it returns or
  // stores out, and what globals and fields hold, which its callers may
  // release. (Facts keyed by a parameter are RegistersParam's.)
  llvm::SmallPtrSet<const void *, 4> Parameters(FD->param_begin(),
                                                FD->param_end());
  llvm::SmallPtrSet<const void *, 4> Globals(Finder.Globals.begin(),
                                             Finder.Globals.end());
  for (const auto &[Key, Fact] : Exit->Registered)
    if (Globals.count(Key))
      Summary.RegistersGlobal.insert_or_assign(
          static_cast<const VarDecl *>(Key), Fact.R);
    else if (!Parameters.count(Key))
      Summary.ExitRegistration.insert_or_assign(Key, Fact);
}

SourceLocation originLocation(Origin O) {
  if (const auto *S = O.dyn_cast<const Stmt *>())
    return S->getBeginLoc();
  return cast<const Decl *>(O)->getLocation();
}

/// Source order for origins of this translation unit, then the others' by
/// their places.
static bool originBefore(Origin A, Origin B, const SourceManager &SM) {
  const auto *EA = A.dyn_cast<const ExternalOrigin *>();
  const auto *EB = B.dyn_cast<const ExternalOrigin *>();
  if (EA || EB) {
    if (!EA || !EB)
      return !EA;
    return std::tie(EA->File, EA->Line, EA->Column) <
           std::tie(EB->File, EB->Line, EB->Column);
  }
  return SM.isBeforeInTranslationUnit(originLocation(A), originLocation(B));
}

PointerValue FunctionProvenance::argumentAt(const CallExpr *Call,
                                            unsigned Index) const {
  auto It = Arguments.find(Call);
  if (It == Arguments.end() || Index >= It->second.size())
    return PointerValue::unknown();
  return It->second[Index];
}

PointerValue FunctionProvenance::valueAt(const Stmt *At,
                                         const Expr *Ptr) const {
  auto It = StateAt.find(At);
  if (It == StateAt.end() || !Ptr)
    return PointerValue::unknown();
  return Evaluator(It->second, Escaped, Summaries, Function).pointer(Ptr);
}

HostProvenance FunctionProvenance::pointerAt(const Stmt *At,
                                             const Expr *Ptr) const {
  auto It = StateAt.find(At);
  PointerValue V = valueAt(At, Ptr);
  // A pointer parameter this function neither reassigned nor registered
  // (on any path to here) holds what every call site passes, where the
  // translation unit knows them all. (An unknown value made from joins
  // that only grow stays so: only its other answers are recorded.)
  if (!V.isKnownAsJoinsGrow() && Summaries && It != StateAt.end())
    if (const ParmVarDecl *PD = pointerParameterBase(Ptr))
      if (!Escaped.count(PD) && !It->second.Vars.count(PD)) {
        // A lookup of the parameter's registration reads every answer the
        // registrations were made from.
        readProgramAnswers(It->second.RegistrationAnswers);
        if (!It->second.Registered.count(PD))
          V = Summaries->parameter(PD);
      }
  if (!V.isKnownAsJoinsGrow())
    return {};
  HostProvenance Result{V.kind(), {V.origins().begin(), V.origins().end()}, {}};
  // The lattice orders origins by address; reports list them in source
  // order, the same in every process.
  llvm::sort(Result.Origins,
             [&](Origin A, Origin B) { return originBefore(A, B, *SM); });
  if (V.kind() != MemoryKind::Pageable)
    return Result;
  // Pageable memory is registered only if every allocation it may point
  // into is registered on every path. Where this function says nothing, a
  // registration elsewhere in the translation unit leaves it open. Each
  // lookup reads the answers the registrations were made from.
  readProgramAnswers(It->second.RegistrationAnswers);
  unsigned Registered = 0;
  // In source order, so that the registering calls are listed alike in
  // every process.
  for (Origin O : Result.Origins) {
    const RegistrationFact *F = It->second.registration(O.getOpaqueValue());
    if (F && F->Fresh)
      F = nullptr;
    Registration R = F ? F->R
                     : Summaries && Summaries->registeredAnywhere(O)
                         ? Registration::Maybe
                         : Registration::No;
    if (R == Registration::Maybe)
      return {};
    if (R == Registration::Yes) {
      ++Registered;
      if (F->By && !llvm::is_contained(Result.RegisteredBy, F->By))
        Result.RegisteredBy.push_back(F->By);
    }
  }
  if (Registered == V.origins().size())
    Result.Kind = MemoryKind::Registered;
  else if (Registered != 0)
    return {};
  return Result;
}

/// How an allocating call is spelled in a note: 'malloc', 'new[]', ...
static std::string allocatorName(const Stmt *S) {
  if (const auto *New = dyn_cast<CXXNewExpr>(S))
    return New->isArray() ? "new[]" : "new";
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee())
      return (FD->isInStdNamespace() ? "std::" : "") + FD->getNameAsString();
  return "";
}

OriginNote describeOrigin(Origin O, MemoryKind K, SourceManager &SM,
                          SourceLocation Site) {
  const auto *E = O.dyn_cast<const ExternalOrigin *>();
  if (!E)
    return describeOrigin(O, K);
  if (OptionalFileEntryRef File =
          SM.getFileManager().getOptionalFileRef(E->File)) {
    FileID FID = SM.getOrCreateFileID(*File, SrcMgr::C_User);
    SourceLocation Loc = SM.translateLineCol(FID, E->Line, E->Column);
    if (FID.isValid() && Loc.isValid())
      return {Loc, E->Note};
  }
  return {Site, E->Note + " (" + E->key() + ")"};
}

std::string originReleaser(Origin O) {
  if (const auto *E = O.dyn_cast<const ExternalOrigin *>())
    return E->Releaser;
  if (const auto *S = O.dyn_cast<const Stmt *>())
    return matchingReleaser(S);
  return "";
}

OriginNote describeOrigin(Origin O, MemoryKind K) {
  std::string Kind = memoryKindName(K).str();
  if (const auto *S = O.dyn_cast<const Stmt *>()) {
    if (isa<StringLiteral>(S))
      return {S->getBeginLoc(), "string literal storage is " + Kind};
    return {S->getBeginLoc(),
            Kind + " memory allocated here with '" + allocatorName(S) + "'"};
  }
  const auto *D = cast<const Decl *>(O);
  if (const auto *FD = dyn_cast<FieldDecl>(D);
      FD && !isPageableHeapContainer(FD->getType()))
    return {FD->getLocation(), "'" + FD->getNameAsString() +
                                   "' is a data member of '*this', an "
                                   "object in " +
                                   Kind + " host memory"};
  if (const auto *FD = dyn_cast<FieldDecl>(D))
    return {FD->getLocation(),
            "the storage of member '" + FD->getNameAsString() +
                "' (default allocator) is " + Kind + " memory"};
  const auto *VD = cast<VarDecl>(D);
  std::string Name = "'" + VD->getNameAsString() + "'";
  if (VD->getType()->isReferenceType() &&
      isPageableHeapContainer(VD->getType()))
    return {VD->getLocation(), "the storage of " + Name +
                                   " (default allocator) is " + Kind +
                                   " memory"};
  if (isPageableContainer(VD->getType()))
    return {VD->getLocation(),
            "the storage of " + Name + " is " + Kind + " memory"};
  if (K != MemoryKind::Pageable)
    return {VD->getLocation(), Name + " is a " + Kind + " variable"};
  if (VD->hasLocalStorage())
    return {VD->getLocation(),
            Name + " is a local variable: its storage is " + Kind + " memory"};
  return {VD->getLocation(), Name + " has static storage: " + Kind + " memory"};
}

} // namespace cuda_async_lint
