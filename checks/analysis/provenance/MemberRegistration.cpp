//===- MemberRegistration.cpp ---------------------------------------------===//

#include "MemberRegistration.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Whether \p E names \p Member of 'this' ('h', 'this->h', '(void *)h').
bool namesMember(const Expr *E, const FieldDecl *Member) {
  const auto *ME = E ? dyn_cast<MemberExpr>(E->IgnoreParenCasts()) : nullptr;
  return ME && ME->getMemberDecl() == Member &&
         isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
}

/// Whether a member initializer gives the member a null pointer
/// ('h(nullptr)', 'h(NULL)', 'h{}').
bool isNullInitializer(const Expr *Value, ASTContext &Ctx) {
  Value = Value->IgnoreImplicit();
  if (const auto *List = dyn_cast<InitListExpr>(Value))
    return List->getNumInits() == 0 ||
           (List->getNumInits() == 1 &&
            isNullInitializer(List->getInit(0), Ctx));
  if (const auto *Paren = dyn_cast<ParenListExpr>(Value))
    return Paren->getNumExprs() == 1 &&
           isNullInitializer(Paren->getExpr(0), Ctx);
  return isa<ImplicitValueInitExpr>(Value) ||
         Value->IgnoreParenCasts()->isNullPointerConstant(
             Ctx, Expr::NPC_ValueDependentIsNotNull);
}

/// What one member function does to the member, in the order written.
struct MemberUse {
  unsigned Assignments = 0;
  /// Assignments of a null pointer ('h = nullptr', 'a = b = nullptr'):
  /// clearing the member after its release.
  unsigned NullAssignments = 0;
  /// A registration at the top level of the body, after every assignment.
  const CallExpr *Registration = nullptr;
  bool Unregisters = false;
  bool RegistersElsewhere = false;
};

void walk(const Stmt *S, const FieldDecl *Member, bool Conditional,
          MemberUse &Use);

/// Whether \p S never falls through: a return or a throw, or a block that
/// ends in one.
bool leaves(const Stmt *S) {
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(S))
    return !Block->body_empty() && leaves(Block->body_back());
  return isa_and_nonnull<ReturnStmt, CXXThrowExpr>(S);
}

/// Each operand of the '||' chain \p Cond, walked as running.
void walkOperandsOfOr(const Expr *Cond, const FieldDecl *Member,
                      bool Conditional, MemberUse &Use) {
  const Expr *E = Cond->IgnoreParenImpCasts();
  if (const auto *Or = dyn_cast<BinaryOperator>(E);
      Or && Or->getOpcode() == BO_LOr) {
    walkOperandsOfOr(Or->getLHS(), Member, Conditional, Use);
    walkOperandsOfOr(Or->getRHS(), Member, Conditional, Use);
    return;
  }
  walk(Cond, Member, Conditional, Use);
}

/// Calls under \p S, with whether they are reached through a branch or a
/// loop (or a lambda) of the body.
void walk(const Stmt *S, const FieldDecl *Member, bool Conditional,
          MemberUse &Use) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp() && namesMember(BO->getLHS(), Member)) {
    ++Use.Assignments;
    Use.Registration = nullptr; // Registered before: another buffer now.
    const Expr *Value = BO->getRHS()->IgnoreParenCasts();
    for (const auto *Chained = dyn_cast<BinaryOperator>(Value);
         Chained && Chained->getOpcode() == BO_Assign;
         Chained = dyn_cast<BinaryOperator>(Value))
      Value = Chained->getRHS()->IgnoreParenCasts();
    if (BO->getOpcode() == BO_Assign &&
        Value->isNullPointerConstant(Member->getASTContext(),
                                     Expr::NPC_ValueDependentIsNotNull))
      ++Use.NullAssignments;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (const ApiSpec *Api = lookupApi(Call)) {
      const Expr *Ptr = Api->arg(Call, ArgRole::Ptr);
      if (Api->Kind == ApiKind::Unregister && namesMember(Ptr, Member))
        Use.Unregisters = true;
      if (Api->Kind == ApiKind::Register && namesMember(Ptr, Member)) {
        if (Conditional)
          Use.RegistersElsewhere = true;
        else
          Use.Registration = Call;
      }
    }
    // '&h' handed to a call may point the member elsewhere.
    for (const Expr *Arg : Call->arguments())
      if (const Expr *Operand = addressOfOperand(Arg))
        if (namesMember(Operand, Member))
          ++Use.Assignments, Use.Registration = nullptr;
  }
  // An if's condition runs whenever the if does: a registration checked
  // there ('if (cudaHostRegister(h, n, 0) != cudaSuccess) return false;')
  // is in force on the path that goes on. Its arms may not run.
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    walk(If->getInit(), Member, Conditional, Use);
    // 'if (!p || cudaHostRegister(p, n, 0) != cudaSuccess) return false;':
    // the path that goes on found every operand of the '||' false, so ran
    // each of them.
    if (!If->getElse() && leaves(If->getThen()))
      walkOperandsOfOr(If->getCond(), Member, Conditional, Use);
    else
      walk(If->getCond(), Member, Conditional, Use);
    walk(If->getThen(), Member, /*Conditional=*/true, Use);
    walk(If->getElse(), Member, /*Conditional=*/true, Use);
    return;
  }
  // A 'do { } while (0)' of a macro runs once; anything else under a
  // branch or a loop may not run, nor the right of '&&' and '||'.
  bool Branches = isa<SwitchStmt, ForStmt, WhileStmt, CXXForRangeStmt,
                      ConditionalOperator, CXXTryStmt>(S);
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp()) {
    walk(BO->getLHS(), Member, Conditional, Use);
    walk(BO->getRHS(), Member, /*Conditional=*/true, Use);
    return;
  }
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    std::optional<int64_t> Cond =
        integerConstant(Do->getCond(), Member->getASTContext());
    Branches = !Cond || *Cond != 0;
  }
  for (const Stmt *Child : S->children())
    walk(Child, Member, Conditional || Branches, Use);
}

} // namespace

const CallExpr *registrationInForce(const FieldDecl *Member,
                                    const CXXMethodDecl *Releaser) {
  const CXXRecordDecl *Class = Releaser->getParent();
  if (!Class || !Class->hasDefinition())
    return nullptr;
  const SourceManager &SM = Member->getASTContext().getSourceManager();
  const CallExpr *Registration = nullptr;
  for (const CXXMethodDecl *M : Class->methods()) {
    const FunctionDecl *Def = nullptr;
    if (!M->hasBody(Def) || !Def ||
        SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
      continue;
    MemberUse Use;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->getAnyMember() == Member && Init->isWritten()) {
          ++Use.Assignments;
          if (const Expr *Value = Init->getInit();
              Value && isNullInitializer(Value, Member->getASTContext()))
            ++Use.NullAssignments;
        }
    walk(Def->getBody(), Member, /*Conditional=*/false, Use);
    if (Use.Unregisters || Use.RegistersElsewhere)
      return nullptr;
    if (Def == Releaser->getDefinition() || Def == Releaser) {
      // The releaser itself sets the member up; clearing it to null
      // ('delete[] h; h = nullptr;') does not.
      if (Use.Registration || Use.Assignments > Use.NullAssignments)
        return nullptr;
      continue;
    }
    if (Use.Registration) {
      if (Registration)
        return nullptr; // Two member functions set it up.
      Registration = Use.Registration;
    } else if (Use.Assignments > Use.NullAssignments) {
      // Assigned elsewhere than where it is registered; set to null there
      // (a constructor's 'h = NULL', ': h(nullptr)') sets up nothing.
      return nullptr;
    }
  }
  return Registration;
}

} // namespace cuda_async_lint
