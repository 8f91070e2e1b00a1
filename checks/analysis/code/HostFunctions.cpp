//===- HostFunctions.cpp --------------------------------------------------===//

#include "HostFunctions.h"
#include "cuda-async-lint/ExecutionSpace.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <map>
#include <memory>
#include <mutex>

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_async_lint {

namespace {

/// Records the enclosing host function of each call and delete expression.
class HostCode : public RecursiveASTVisitor<HostCode> {
public:
  explicit HostCode(
      llvm::DenseMap<const Stmt *, const FunctionDecl *> &Enclosing)
      : Enclosing(Enclosing) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD)
      return RecursiveASTVisitor::TraverseDecl(D);
    // A device function's body, and what it declares, is device code.
    if (isDeviceOnly(FD))
      return true;
    return within(FD, [&] { return RecursiveASTVisitor::TraverseDecl(D); });
  }

  bool TraverseLambdaExpr(LambdaExpr *L) {
    const CXXMethodDecl *Operator = L->getCallOperator();
    if (Operator && isDeviceOnly(Operator))
      return true;
    return within(Operator,
                  [&] { return RecursiveASTVisitor::TraverseLambdaExpr(L); });
  }

  bool VisitCallExpr(CallExpr *Call) { return record(Call); }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *Delete) { return record(Delete); }

private:
  /// \p Traverse with \p F as the enclosing function.
  template <class Fn> bool within(const FunctionDecl *F, Fn Traverse) {
    const FunctionDecl *Outer = Current;
    Current = F;
    bool Result = Traverse();
    Current = Outer;
    return Result;
  }

  bool record(const Stmt *S) {
    if (Current)
      Enclosing.try_emplace(S, Current);
    return true;
  }

  llvm::DenseMap<const Stmt *, const FunctionDecl *> &Enclosing;
  const FunctionDecl *Current = nullptr;
};

AST_MATCHER_P(Stmt, inHostFunctionMatcher,
              clang::ast_matchers::internal::Matcher<FunctionDecl>, Function) {
  const FunctionDecl *FD =
      HostFunctions::of(Finder->getASTContext()).enclosing(&Node);
  return FD && Function.matches(*FD, Finder, Builder);
}

} // namespace

HostFunctions::HostFunctions(ASTContext &Ctx) {
  HostCode Finder(Enclosing);
  Finder.TraverseAST(Ctx);
}

const HostFunctions &HostFunctions::of(ASTContext &Ctx) {
  // The driver analyses translation units on several threads at once, each
  // its own ASTContext; an index lives as long as its context, whose
  // address a later one may reuse.
  static std::mutex Lock;
  static std::map<const ASTContext *, std::unique_ptr<HostFunctions>> Live;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (auto It = Live.find(&Ctx); It != Live.end())
      return *It->second;
  }
  auto Index = std::make_unique<HostFunctions>(Ctx);
  std::lock_guard<std::mutex> Guard(Lock);
  Ctx.AddDeallocation(
      [](void *Context) {
        std::lock_guard<std::mutex> Guard(Lock);
        Live.erase(static_cast<const ASTContext *>(Context));
      },
      &Ctx);
  return *(Live[&Ctx] = std::move(Index));
}

clang::ast_matchers::internal::Matcher<Stmt>
inHostFunction(clang::ast_matchers::internal::Matcher<FunctionDecl> Function) {
  return inHostFunctionMatcher(std::move(Function));
}

clang::ast_matchers::StatementMatcher callOfUserFunction() {
  using namespace clang::ast_matchers;
  return callExpr(unless(cxxOperatorCallExpr()),
                  callee(functionDecl(unless(isExpansionInSystemHeader()))
                             .bind("helper")),
                  inHostFunction(functionDecl().bind("function")))
      .bind("call");
}

} // namespace cuda_async_lint
