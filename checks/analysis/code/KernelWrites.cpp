//===- KernelWrites.cpp ---------------------------------------------------===//

#include "KernelWrites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <set>

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Device functions handed a pointer are followed this deep.
constexpr unsigned MaxDepth = 4;

/// The parameter or local pointer \p E names, once casts and parentheses
/// are gone.
const VarDecl *namedPointer(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// The pointers whose memory is followed: the parameter itself, or a
/// pointer member of it ('s.buf', 's->inner.buf'), and the local pointers
/// derived from it.
struct Roots {
  std::set<const VarDecl *> Aliases;
  const ParmVarDecl *Param = nullptr;
  llvm::ArrayRef<const FieldDecl *> Path;

  /// Whether \p E is the member path of the parameter: its fields, from
  /// the last, each through the one before ('.' or '->'), down to the
  /// parameter.
  bool isMemberPath(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    for (const FieldDecl *Field : llvm::reverse(Path)) {
      const auto *ME = dyn_cast<MemberExpr>(E);
      if (!ME || ME->getMemberDecl() != Field)
        return false;
      E = ME->getBase()->IgnoreParenImpCasts();
    }
    return namedPointer(E) == Param;
  }

  /// Whether \p E names a root: an alias, or the member path.
  bool names(const Expr *E) const {
    if (!Path.empty() && isMemberPath(E))
      return true;
    const VarDecl *VD = namedPointer(E);
    return VD && Aliases.count(VD);
  }

  /// Whether \p E computes an address from a root: 'p', 'p + i', '&p[i]',
  /// '(float *)p'.
  bool derivesFrom(const Expr *E) const {
    E = E->IgnoreParenCasts();
    if (names(E))
      return true;
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return B->isAdditiveOp() &&
             (derivesFrom(B->getLHS()) || derivesFrom(B->getRHS()));
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_AddrOf)
        if (const auto *Sub =
                dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens()))
          return derivesFrom(Sub->getBase());
    return false;
  }
};

/// The local pointers of a body initialized or assigned from an address
/// derived from a root.
class AliasFinder : public RecursiveASTVisitor<AliasFinder> {
public:
  Roots &R;
  bool Changed = false;
  explicit AliasFinder(Roots &R) : R(R) {}
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isPointerType() && VD->getInit() &&
        R.derivesFrom(VD->getInit()))
      Changed |= R.Aliases.insert(VD).second;
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign && B->getType()->isPointerType())
      if (const VarDecl *VD = namedPointer(B->getLHS());
          VD && R.derivesFrom(B->getRHS()))
        Changed |= R.Aliases.insert(VD).second;
    return true;
  }
};

class UseFinder : public RecursiveASTVisitor<UseFinder> {
public:
  UseFinder(const Roots &R, const Stmt *Body, unsigned Depth)
      : R(R), Parents(const_cast<Stmt *>(Body)), Depth(Depth) {}
  PointeeUse Use = PointeeUse::None;

  bool VisitDeclRefExpr(DeclRefExpr *DRE) { return visitRoot(DRE); }
  bool VisitMemberExpr(MemberExpr *ME) {
    return R.Path.empty() ? true : visitRoot(ME);
  }

private:
  bool visitRoot(const Expr *E) {
    if (!R.names(E))
      return true;
    PointeeUse U = useOf(E);
    if (U > Use)
      Use = U;
    return Use != PointeeUse::Write;
  }

  const Roots &R;
  /// The body's own map: the ASTContext's would cover the whole unit, and
  /// a driver's traversal scope leaves device code out of it.
  ParentMap Parents;
  unsigned Depth;

  const Stmt *parent(const Stmt *S) const { return Parents.getParent(S); }

  /// What the expression \p Ref (a name of the pointer) does to its memory.
  PointeeUse useOf(const Expr *Ref) {
    // Climb from the pointer to the memory it addresses: casts, pointer
    // arithmetic, then a subscript, a dereference or a member through it.
    const Expr *Address = Ref;
    bool Addressed = false; // Address is now an lvalue of the memory.
    for (const Stmt *P = parent(Address); P; P = parent(Address)) {
      const auto *E = dyn_cast<Expr>(P);
      if (!E)
        break;
      if (isa<ParenExpr, ImplicitCastExpr, CStyleCastExpr, CXXStaticCastExpr,
              CXXReinterpretCastExpr>(E) &&
          !Addressed) {
        Address = E;
        continue;
      }
      if (const auto *B = dyn_cast<BinaryOperator>(E);
          B && B->isAdditiveOp() && B->getType()->isPointerType() &&
          !Addressed) {
        Address = E;
        continue;
      }
      if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E);
          Sub && !Addressed &&
          Sub->getBase()->IgnoreParenImpCasts() ==
              Address->IgnoreParenImpCasts()) {
        Address = E;
        Addressed = true;
        continue;
      }
      if (const auto *U = dyn_cast<UnaryOperator>(E);
          U && U->getOpcode() == UO_Deref && !Addressed) {
        Address = E;
        Addressed = true;
        continue;
      }
      if (const auto *M = dyn_cast<MemberExpr>(E);
          M && M->isArrow() && !Addressed) {
        Address = E;
        Addressed = true;
        continue;
      }
      // A member or element of the addressed memory is the memory too.
      if (Addressed &&
          (isa<ParenExpr, MemberExpr>(E) ||
           (isa<ArraySubscriptExpr>(E) &&
            cast<ArraySubscriptExpr>(E)->getBase()->IgnoreParenImpCasts() ==
                Address))) {
        Address = E;
        continue;
      }
      // '&p[i]': an address again, to be followed.
      if (const auto *U = dyn_cast<UnaryOperator>(E);
          U && U->getOpcode() == UO_AddrOf && Addressed) {
        Address = E;
        Addressed = false;
        continue;
      }
      break;
    }
    const Stmt *User = parent(Address);
    if (!User)
      return PointeeUse::None;
    if (Addressed) {
      if (const auto *B = dyn_cast<BinaryOperator>(User);
          B && B->isAssignmentOp() && B->getLHS() == Address)
        return PointeeUse::Write;
      if (const auto *U = dyn_cast<UnaryOperator>(User);
          U && U->isIncrementDecrementOp())
        return PointeeUse::Write;
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(User);
          Op && Op->isAssignmentOp() && Op->getArg(0) == Address)
        return PointeeUse::Write;
      // Bound to a reference to non-const, or an object's non-const member
      // function called on it: may write.
      if (isa<CallExpr>(User) && !Address->getType().isConstQualified())
        return callUse(cast<CallExpr>(User), Address, /*ByAddress=*/false);
      return PointeeUse::Read;
    }
    if (const auto *Call = dyn_cast<CallExpr>(User))
      return callUse(Call, Address, /*ByAddress=*/true);
    // Stored elsewhere, compared, or an alias's initializer (followed on
    // its own): no access here.
    return PointeeUse::None;
  }

  /// What \p Call does with the memory \p Arg addresses (\p ByAddress) or
  /// is (a reference argument).
  PointeeUse callUse(const CallExpr *Call, const Expr *Arg, bool ByAddress) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned Index = 0;
    for (; Index < Call->getNumArgs(); ++Index)
      if (Call->getArg(Index) == Arg)
        break;
    if (Index == Call->getNumArgs())
      return PointeeUse::Read;
    if (!Callee || Index >= Callee->getNumParams())
      return PointeeUse::Read; // Variadic (printf) or through a pointer.
    QualType Param = Callee->getParamDecl(Index)->getType();
    QualType Pointee =
        ByAddress ? Param->getPointeeType() : Param.getNonReferenceType();
    if (Pointee.isNull() || Pointee.isConstQualified())
      return PointeeUse::Read;
    if (!ByAddress && !Param->isReferenceType())
      return PointeeUse::Read; // Passed by value: a copy.
    if (ByAddress && Depth < MaxDepth && Callee->hasBody())
      if (std::optional<PointeeUse> U =
              pointeeUseAt(Callee, Index, {}, Depth + 1))
        return *U;
    // A device function whose body is not here, as the atomics: it may
    // write what it is given to write.
    return PointeeUse::Write;
  }

public:
  static std::optional<PointeeUse>
  pointeeUseAt(const FunctionDecl *FD, unsigned Index,
               llvm::ArrayRef<const FieldDecl *> Path, unsigned Depth) {
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def || Index >= Def->getNumParams())
      return std::nullopt;
    Roots R;
    R.Param = Def->getParamDecl(Index);
    R.Path = Path;
    if (Path.empty() ? !R.Param->getType()->isPointerType()
                     : !Path.back()->getType()->isPointerType())
      return std::nullopt;
    if (Path.size() == 1)
      if (const VarDecl *Captured = capturedVariable(Path.front()))
        return callsFunctor(Def->getBody(), R.Param)
                   ? captureUse(Path.front(), Captured, Depth)
                   : std::optional<PointeeUse>(PointeeUse::None);
    if (Path.empty())
      R.Aliases.insert(R.Param);
    return useIn(Def->getBody(), R, Depth);
  }

private:
  static PointeeUse useIn(Stmt *Body, Roots &R, unsigned Depth) {
    for (AliasFinder Finder(R); true;) {
      Finder.Changed = false;
      Finder.TraverseStmt(Body);
      if (!Finder.Changed)
        break;
    }
    UseFinder Uses(R, Body, Depth);
    Uses.TraverseStmt(Body);
    return Uses.Use;
  }

  /// Whether \p Body calls the functor \p Param ('functor(tid)').
  static bool callsFunctor(const Stmt *Body, const ParmVarDecl *Param) {
    if (!Body)
      return false;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Body);
        Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0 &&
        namedPointer(Op->getArg(0)) == Param)
      return true;
    return llvm::any_of(Body->children(), [&](const Stmt *Child) {
      return callsFunctor(Child, Param);
    });
  }

  /// What the call operator of the lambda whose closure has \p Field does
  /// to the memory its copy of \p Captured points to.
  static std::optional<PointeeUse>
  captureUse(const FieldDecl *Field, const VarDecl *Captured, unsigned Depth) {
    const auto *Closure = cast<CXXRecordDecl>(Field->getParent());
    const CXXMethodDecl *Call = Closure->getLambdaCallOperator();
    const FunctionDecl *Def = nullptr;
    if (!Call || !Call->hasBody(Def) || !Def)
      return std::nullopt;
    Roots R;
    R.Aliases.insert(Captured);
    return useIn(Def->getBody(), R, Depth);
  }
};

} // namespace

const VarDecl *capturedVariable(const FieldDecl *Field) {
  const auto *Closure = dyn_cast_or_null<CXXRecordDecl>(Field->getParent());
  if (!Closure || !Closure->isLambda())
    return nullptr;
  llvm::DenseMap<const ValueDecl *, FieldDecl *> Captures;
  FieldDecl *This = nullptr;
  Closure->getCaptureFields(Captures, This);
  for (const auto &[Var, F] : Captures)
    if (F == Field)
      return dyn_cast<VarDecl>(Var);
  return nullptr;
}

std::optional<PointeeUse> pointeeUse(const FunctionDecl *FD, unsigned Index,
                                     llvm::ArrayRef<const FieldDecl *> Path) {
  return UseFinder::pointeeUseAt(FD, Index, Path, 0);
}

} // namespace cuda_async_lint
