//===- HostAccessTest.cpp - Buffer identity and host accesses -------------===//

#include "analysis/pending/HostAccess.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;
using namespace clang::ast_matchers;

namespace {

class HostAccessTest : public ::testing::Test {
protected:
  void parse(llvm::StringRef Body) {
    AST = clang::tooling::buildASTFromCodeWithArgs(
        "void use(const float *); void fill(float *);\n" + Body.str(),
        {"-std=c++17"});
    ASSERT_TRUE(AST);
    Function = selectFirst<clang::FunctionDecl>(
        "f", match(functionDecl(hasName("f"), isDefinition()).bind("f"),
                   AST->getASTContext()));
    ASSERT_TRUE(Function);
    Finder = std::make_unique<HostAccessFinder>(Function);
  }

  /// The buffer of the argument of the \p Index-th call to use() or fill().
  BufferRef argumentBuffer(unsigned Index) {
    auto Calls = match(callExpr(callee(functionDecl(hasAnyName("use", "fill"))),
                                hasArgument(0, expr().bind("arg"))),
                       AST->getASTContext());
    EXPECT_LT(Index, Calls.size());
    std::optional<BufferRef> B =
        Finder->bufferOf(Calls[Index].getNodeAs<clang::Expr>("arg"));
    EXPECT_TRUE(B.has_value());
    return B.value_or(BufferRef{});
  }

  std::string nameOf(const BufferRef &B) {
    return B.Base ? B.Base->getNameAsString() : "";
  }
  std::vector<std::string> depsOf(const BufferRef &B) {
    std::vector<std::string> Names;
    for (const clang::VarDecl *VD : B.Deps)
      Names.push_back(VD->getNameAsString());
    llvm::sort(Names);
    return Names;
  }

  std::unique_ptr<clang::ASTUnit> AST;
  const clang::FunctionDecl *Function = nullptr;
  std::unique_ptr<HostAccessFinder> Finder;
};

TEST_F(HostAccessTest, BufferIdentityFollowsAddressArithmetic) {
  parse(R"(void f(float *h, int n) {
    for (int i = 0; i < n; ++i) {
      int offset = i * 256;
      use(h);
      use(h + offset);
      use(&h[i]);
      float *slice = h + i * 4;
      fill(slice);
    }
  })");
  EXPECT_EQ(nameOf(argumentBuffer(0)), "h");
  EXPECT_TRUE(depsOf(argumentBuffer(0)).empty());
  EXPECT_EQ(depsOf(argumentBuffer(1)), std::vector<std::string>{"offset"});
  EXPECT_EQ(depsOf(argumentBuffer(2)), std::vector<std::string>{"i"});
  // A pointer initialized once from an address is that address.
  EXPECT_EQ(nameOf(argumentBuffer(3)), "h");
  EXPECT_EQ(depsOf(argumentBuffer(3)), std::vector<std::string>{"i"});
}

TEST_F(HostAccessTest, ReassignedPointersAreTheirOwnBuffer) {
  parse(R"(void f(float *a, float *b) {
    float *front = a;
    use(front);
    front = b;
    use(front);
  })");
  EXPECT_EQ(nameOf(argumentBuffer(0)), "front");
  EXPECT_EQ(nameOf(argumentBuffer(1)), "front");
}

TEST_F(HostAccessTest, WrittenVariables) {
  parse(R"(void f() { int i = 0; i++; i += 2; int j = i; j = 3; })");
  unsigned Written = 0;
  for (const BoundNodes &N :
       match(functionDecl(forEachDescendant(stmt().bind("s"))), *Function,
             AST->getASTContext()))
    Written += HostAccessFinder::writtenVariable(
                   N.getNodeAs<clang::Stmt>("s")) != nullptr;
  // int i = 0; i++; i += 2; int j = i; j = 3;
  EXPECT_EQ(Written, 5u);
}

} // namespace
