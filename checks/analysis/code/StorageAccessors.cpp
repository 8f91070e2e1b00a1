//===- StorageAccessors.cpp - Member functions that return storage -------===//

#include "StorageAccessors.h"
#include "ObjectReferences.h"
#include "StmtWalk.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

/// What a returned pointer points into (pointerBase), or the object whose
/// address it is ('&data_').
static const Expr *pointerOrigin(const Expr *E) {
  const Expr *Base = pointerBase(E);
  if (const auto *UO = dyn_cast<UnaryOperator>(Base);
      UO && UO->getOpcode() == UO_AddrOf)
    return UO->getSubExpr()->IgnoreParens();
  return Base;
}

static const FieldDecl *ownStorage(const CXXMethodDecl *MD, unsigned Depth) {
  // Not a conversion ('operator cudaStream_t()' of an RAII stream), nor a
  // handle to an object the program never sees inside (a stream, an event):
  // those name no memory.
  if (!MD || Depth > 4 || MD->isVirtual() || MD->isStatic() ||
      isa<CXXConversionDecl>(MD))
    return nullptr;
  QualType Returned = MD->getReturnType();
  bool Reference = Returned->isLValueReferenceType();
  if (!Returned->isPointerType() && !Reference)
    return nullptr;
  QualType Pointee = Returned->getPointeeType();
  if (Pointee->isIncompleteType() || Pointee->isFunctionType())
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def)
    return nullptr;
  if (Def->getASTContext().getSourceManager().isInSystemHeader(
          Def->getLocation()))
    return nullptr; // The standard library's accessors are StdLibrary's.
  // One return, the body's last statement; before it, what checks or
  // fills the storage ('KALDI_ASSERT(data_);', 'if (!data_) allocate();').
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->body_empty())
    return nullptr;
  const auto *Return = dyn_cast<ReturnStmt>(Body->body_back());
  if (!Return || !Return->getRetValue())
    return nullptr;
  unsigned Returns = 0;
  forEachStmtOutsideLambdas(
      Body, [&](const Stmt *S) { Returns += isa<ReturnStmt>(S); });
  if (Returns != 1)
    return nullptr;
  const Expr *Value = Return->getRetValue();
  if (Reference) {
    // An element the pointer points to: 'return h_[i + ld * j];', '*p'.
    Value = Value->IgnoreParenImpCasts();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Value))
      Value = ASE->getBase();
    else if (const auto *UO = dyn_cast<UnaryOperator>(Value);
             UO && UO->getOpcode() == UO_Deref)
      Value = UO->getSubExpr();
    else
      return nullptr;
  }
  const Expr *Origin = pointerOrigin(Value);
  // A pointer or array member of this object.
  if (const auto *ME = dyn_cast<MemberExpr>(Origin)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    return Field && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) &&
                   (ME->getType()->isPointerType() ||
                    ME->getType()->isArrayType())
               ? Field
               : nullptr;
  }
  // Another accessor of this object.
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Origin)) {
    const Expr *Object = Call->getImplicitObjectArgument();
    return Object && isa<CXXThisExpr>(Object->IgnoreParenImpCasts())
               ? ownStorage(Call->getMethodDecl(), Depth + 1)
               : nullptr;
  }
  return nullptr;
}

const FieldDecl *ownStorage(const CXXMethodDecl *MD) {
  return ownStorage(MD, 0);
}

static bool handsOutStorage(const CXXRecordDecl *RD, unsigned Depth) {
  if (!RD || !RD->hasDefinition() || Depth > 8)
    return false;
  RD = RD->getDefinition();
  for (const CXXMethodDecl *MD : RD->methods())
    if (ownStorage(MD))
      return true;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (handsOutStorage(Base.getType()->getAsCXXRecordDecl(), Depth + 1))
      return true;
  return false;
}

bool handsOutStorage(const CXXRecordDecl *RD) { return handsOutStorage(RD, 0); }

} // namespace cuda_async_lint
