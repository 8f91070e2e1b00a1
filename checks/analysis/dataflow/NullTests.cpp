//===- NullTests.cpp ------------------------------------------------------===//

#include "NullTests.h"

using namespace clang;

namespace cuda_async_lint {

std::optional<NullTest> nullTest(const Expr *Cond, ASTContext &Ctx) {
  Cond = Cond->IgnoreParenImpCasts();
  auto IsPointer = [](const Expr *E) {
    return E->IgnoreParenImpCasts()->getType()->isPointerType();
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
      UO && UO->getOpcode() == UO_LNot && IsPointer(UO->getSubExpr()))
    return NullTest{UO->getSubExpr()->IgnoreParenImpCasts(), 0};
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && BO->isEqualityOp()) {
    auto IsNull = [&](const Expr *E) {
      return E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) !=
             Expr::NPCK_NotNull;
    };
    const Expr *Pointer = IsNull(BO->getRHS())   ? BO->getLHS()
                          : IsNull(BO->getLHS()) ? BO->getRHS()
                                                 : nullptr;
    if (Pointer && IsPointer(Pointer))
      return NullTest{Pointer->IgnoreParenImpCasts(),
                      BO->getOpcode() == BO_EQ ? 0u : 1u};
    return std::nullopt;
  }
  if (Cond->getType()->isPointerType())
    return NullTest{Cond, 1};
  return std::nullopt;
}

} // namespace cuda_async_lint
