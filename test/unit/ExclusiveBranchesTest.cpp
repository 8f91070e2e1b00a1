//===- ExclusiveBranchesTest.cpp - Statements no pass runs both of --------===//

#include "analysis/dataflow/ExclusiveBranches.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

/// Whether the calls of 'a' and 'b' in \p Body, a function of \p Params,
/// are exclusive in one pass over the body.
bool exclusive(llvm::StringRef Params, llvm::StringRef Body) {
  std::string Code =
      "void a(); void b();\nvoid f(" + Params.str() + ") {" + Body.str() + "}";
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"},
                                               "input.cpp");
  EXPECT_TRUE(AST);
  struct Collector : clang::RecursiveASTVisitor<Collector> {
    const clang::CallExpr *A = nullptr, *B = nullptr;
    const clang::Stmt *Body = nullptr;
    bool VisitFunctionDecl(clang::FunctionDecl *FD) {
      if (FD->getName() == "f")
        Body = FD->getBody();
      return true;
    }
    bool VisitCallExpr(clang::CallExpr *Call) {
      if (const clang::FunctionDecl *FD = Call->getDirectCallee())
        (FD->getName() == "a" ? A : B) = Call;
      return true;
    }
  } C;
  C.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
  EXPECT_TRUE(C.A && C.B && C.Body);
  return ExclusiveBranches(C.Body, AST->getASTContext()).exclusive(C.A, C.B);
}

TEST(ExclusiveBranchesTest, TwoArmsOfOneIf) {
  EXPECT_TRUE(exclusive("int c", "if (c) a(); else b();"));
  EXPECT_FALSE(exclusive("int c", "if (c) a(); b();"));
}

TEST(ExclusiveBranchesTest, ComparisonsNoValueSatisfies) {
  EXPECT_TRUE(
      exclusive("int i, int s", "if (i == 0) a(); if (s > 1 & i > 0) b();"));
  EXPECT_TRUE(exclusive("int i", "if (!i) a(); if (i) b();"));
  EXPECT_TRUE(exclusive("int i", "if (i < 3) a(); if (3 <= i) b();"));
  EXPECT_TRUE(exclusive("int i", "if (i == 0) a(); if (i != 0 && i < 9) b();"));
  // Both may hold.
  EXPECT_FALSE(exclusive("int i", "if (i >= 0) a(); if (i > 0) b();"));
  EXPECT_FALSE(exclusive("int i, int s", "if (i == 0) a(); if (s > 1) b();"));
  // Either comparison may be the one that held.
  EXPECT_FALSE(
      exclusive("int i, int s", "if (i == 0) a(); if (s > 1 || i > 0) b();"));
  // The false arm of 'i > 0 || s' holds i <= 0.
  EXPECT_TRUE(exclusive("int i, int s",
                        "if (i > 0 || s) {} else a(); if (i > 0) b();"));
}

TEST(ExclusiveBranchesTest, AVariableWrittenBetweenIsReadTwice) {
  EXPECT_FALSE(exclusive("int i", "if (i == 0) a(); i++; if (i > 0) b();"));
  EXPECT_FALSE(exclusive("int i", "if (i == 0) a(); i = 1; if (i > 0) b();"));
}

} // namespace
