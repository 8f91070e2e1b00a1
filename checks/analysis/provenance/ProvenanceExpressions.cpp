//===- ProvenanceExpressions.cpp - What the dataflow names ----------------===//

#include "ProvenanceExpressions.h"
#include "HostProvenance.h"
#include "analysis/code/ObjectReferences.h"
#include "analysis/code/StdLibrary.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace cuda_async_lint::provenance {

namespace {

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

/// True if \p S converts a pointer to an integer somewhere.
bool convertsPointer(const Stmt *S) {
  if (const auto *Cast = dyn_cast<CastExpr>(S))
    if (Cast->getCastKind() == CK_PointerToIntegral)
      return true;
  return llvm::any_of(S->children(), [](const Stmt *Child) {
    return Child && convertsPointer(Child);
  });
}

} // namespace

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

bool isLocalObjectArray(const VarDecl *VD) {
  const auto *Array =
      dyn_cast<ConstantArrayType>(VD->getType()->getUnqualifiedDesugaredType());
  return VD->hasLocalStorage() && Array &&
         Array->getElementType()->isRecordType();
}

const VarDecl *asLocalObject(const Expr *E) {
  bool Element;
  const VarDecl *VD = namedVariable(E, Element);
  if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType())
    return nullptr;
  if (isLocalObjectArray(VD) || (!Element && VD->getType()->isRecordType()))
    return VD;
  return nullptr;
}

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

const VarDecl *globalBase(const Expr *E) {
  return dyn_cast_or_null<VarDecl>(summarizedVariable(pointerBase(E)));
}

bool isOutParameterType(QualType T) {
  if (const auto *Ref = T->getAs<ReferenceType>())
    return Ref->getPointeeType()->isPointerType() &&
           !Ref->getPointeeType().isConstQualified();
  return T->isPointerType() && T->getPointeeType()->isPointerType();
}

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

std::optional<unsigned> parameterIndex(const CallExpr *Call,
                                       const FunctionDecl *FD, unsigned Arg) {
  unsigned Offset =
      isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) ? 1 : 0;
  if (Arg < Offset || Arg - Offset >= FD->getNumParams())
    return std::nullopt;
  return Arg - Offset;
}

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

} // namespace cuda_async_lint::provenance

namespace cuda_async_lint {

const ParmVarDecl *pointerParameterBase(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(pointerBase(E));
  const auto *PD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return PD && PD->getType()->isPointerType() ? PD : nullptr;
}

/// Whether \p T is (an array of) pointers to a record this unit never
/// completes: an opaque handle (cudaStream_t is a 'CUstream_st *',
/// cublasHandle_t a 'cublasContext *'), which names no host memory the
/// program allocates. Summarizing a global array of streams would make
/// every function that names it depend on the function that creates them.
static bool isOpaqueHandle(QualType T) {
  const clang::Type *Pointer = T->getPointeeOrArrayElementType();
  if (!T->isArrayType())
    Pointer = T.getTypePtr();
  const auto *PT = Pointer->getAs<PointerType>();
  return PT && PT->getPointeeType()->isIncompleteType() &&
         PT->getPointeeType()->isRecordType();
}

bool isSummarizedField(const FieldDecl *FD) {
  return FD && FD->getType()->isPointerType() &&
         !isOpaqueHandle(FD->getType()) &&
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
  return Pointers && !isOpaqueHandle(T) && !VD->hasAttr<CUDADeviceAttr>() &&
         !VD->hasAttr<CUDAConstantAttr>() && !VD->hasAttr<CUDASharedAttr>() &&
         !provenance::isManagedVariable(VD) &&
         !VD->getASTContext().getSourceManager().isInSystemHeader(
             VD->getLocation());
}

bool isSummarizedArrayField(const FieldDecl *FD) {
  if (!FD)
    return false;
  QualType T = FD->getType();
  return T->isConstantArrayType() &&
         T->getArrayElementTypeNoTypeQual()->isPointerType() &&
         !isOpaqueHandle(T) &&
         !FD->getASTContext().getSourceManager().isInSystemHeader(
             FD->getLocation());
}

const FieldDecl *userPointerArrayField(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  return isSummarizedArrayField(FD) ? FD : nullptr;
}

const ValueDecl *summarizedVariable(const Expr *E) {
  if (const FieldDecl *FD = userPointerField(E))
    return FD;
  // 'p->slots[i]': an element of a member array of pointers, all of whose
  // elements, in every object, share one summary.
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts()))
    if (const FieldDecl *FD = userPointerArrayField(ASE->getBase()))
      return FD;
  bool Element;
  const VarDecl *VD = provenance::namedVariable(E, Element);
  // 'g' names a global pointer; 'g[i]' an element of a global array of
  // pointers, all of whose elements share one summary.
  if (!isSummarizedGlobal(VD) || VD->getType()->isArrayType() != Element)
    return nullptr;
  return VD->getCanonicalDecl();
}

} // namespace cuda_async_lint
