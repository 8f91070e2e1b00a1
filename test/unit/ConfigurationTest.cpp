//===- ConfigurationTest.cpp - The driver's clang-tidy configuration -----===//

#include "config/Configuration.h"
#include "api/ProjectApis.h"
#include "api/ReleaseSite.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;
using namespace clang::ast_matchers;
using clang::tidy::ClangTidyOptions;

namespace {

ClangTidyOptions withWarningsAsErrors(llvm::StringRef Globs) {
  ClangTidyOptions O;
  O.WarningsAsErrors = Globs.str();
  return O;
}

TEST(Configuration, AnEmptyWarningsAsErrorsLeavesEveryFindingInTheGate) {
  EXPECT_FALSE(warningsAsErrorsDecideGate(ClangTidyOptions()));
  // What clang-tidy --dump-config writes, and two such lists merged.
  EXPECT_FALSE(warningsAsErrorsDecideGate(withWarningsAsErrors("")));
  EXPECT_FALSE(warningsAsErrorsDecideGate(withWarningsAsErrors(",")));
  EXPECT_FALSE(warningsAsErrorsDecideGate(withWarningsAsErrors(" , ")));
  EXPECT_TRUE(warningsAsErrorsDecideGate(withWarningsAsErrors("-*")));
  EXPECT_TRUE(
      warningsAsErrorsDecideGate(withWarningsAsErrors(",cuda-async-*")));
}

TEST(Configuration, FlagsAreCheckedBeforeAnyAnalysis) {
  ConfigurationFlags Typo;
  Typo.Checks = "-*,cuda-async-pagable-copy";
  EXPECT_FALSE(static_cast<bool>(Configuration::fromFlags(Typo)));
  llvm::consumeError(Configuration::fromFlags(Typo).takeError());

  ConfigurationFlags Both;
  Both.ConfigText = "{}";
  Both.ConfigFile = "/nonexistent/.clang-tidy";
  llvm::Expected<Configuration> C = Configuration::fromFlags(Both);
  ASSERT_FALSE(static_cast<bool>(C));
  EXPECT_NE(llvm::toString(C.takeError()).find("contradict"),
            std::string::npos);

  ConfigurationFlags Broken;
  Broken.ConfigText = "{Checks: [";
  C = Configuration::fromFlags(Broken);
  ASSERT_FALSE(static_cast<bool>(C));
  EXPECT_NE(llvm::toString(C.takeError()).find("'--config'"),
            std::string::npos);
}

TEST(Configuration, GivenConfigurationReplacesTheFilesAndFlagsOverrideIt) {
  ConfigurationFlags F;
  F.ConfigText = "{Checks: '-*,cuda-async-sync-in-loop', "
                 "CheckOptions: {cuda-async-pageable-copy.MinCopySize: 8}}";
  F.Checks = "cuda-async-pageable-copy";
  llvm::Expected<Configuration> C = Configuration::fromFlags(F);
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  ClangTidyOptions O = C->optionsFor("/nonexistent/dir/a.cu");
  std::vector<llvm::StringRef> Enabled = enabledChecks(O);
  EXPECT_EQ(Enabled, (std::vector<llvm::StringRef>{"cuda-async-pageable-copy",
                                                   "cuda-async-sync-in-loop"}));
  EXPECT_EQ(O.CheckOptions.lookup("cuda-async-pageable-copy.MinCopySize").Value,
            "8");
  EXPECT_NE(dumpConfiguration(O).find("cuda-async-pageable-copy.MinCopySize: "
                                      "'8'"),
            std::string::npos);
}

const clang::FunctionDecl *function(clang::ASTContext &Ctx,
                                    llvm::StringRef Name) {
  auto Found = match(functionDecl(hasName(Name)).bind("f"), Ctx);
  return Found.empty() ? nullptr
                       : Found.front().getNodeAs<clang::FunctionDecl>("f");
}

TEST(ProjectApis, NamesMatchQualifiedOrPlainInAnyNamespace) {
  std::unique_ptr<clang::ASTUnit> AST = clang::tooling::buildASTFromCode(
      "namespace lib { struct Pool { void *allocPinned(unsigned long); "
      "void releasePinned(void *); }; }\n"
      "struct Other { void *allocPinned(unsigned long); };\n"
      "void *grab(unsigned long);\n"
      "void use(lib::Pool &p, void *q) { p.allocPinned(8); "
      "p.releasePinned(q); }\n");
  clang::ASTContext &Ctx = AST->getASTContext();
  ProjectApis Apis;
  Apis.PinnedAllocators = {"Pool::allocPinned"};
  Apis.PinnedReleasers = {"lib::Pool::releasePinned"};
  Apis.PageableAllocators = {"grab"};
  setProjectApis(Apis);

  const ApiSpec *Alloc = lookupApi(function(Ctx, "lib::Pool::allocPinned"));
  ASSERT_NE(Alloc, nullptr);
  EXPECT_EQ(Alloc->Kind, ApiKind::Allocate);
  EXPECT_EQ(Alloc->Memory, MemoryKind::Pinned);
  EXPECT_EQ(Alloc->Counterpart, "lib::Pool::releasePinned");
  const ApiSpec *Release = lookupApi(function(Ctx, "releasePinned"));
  ASSERT_NE(Release, nullptr);
  EXPECT_EQ(Release->Kind, ApiKind::Release);
  EXPECT_EQ(Release->argIndex(ArgRole::Ptr), 0u);
  // Another class's member of the same name is not the pool's.
  EXPECT_EQ(lookupApi(function(Ctx, "Other::allocPinned")), nullptr);
  const ApiSpec *Grab = lookupApi(function(Ctx, "grab"));
  ASSERT_NE(Grab, nullptr);
  EXPECT_EQ(Grab->Memory, MemoryKind::Pageable);
  // Only releasers join the matchers: a project's allocator is no CUDA
  // allocation to apiCall(), its releaser is a release site.
  EXPECT_TRUE(match(apiCall(ApiKind::Allocate), Ctx).empty());
  auto Releases = match(releaseSiteMatcher("release"), Ctx);
  ASSERT_EQ(Releases.size(), 1u);
  const auto *Released =
      Releases.front().getNodeAs<clang::CXXMemberCallExpr>("release");
  ASSERT_NE(Released, nullptr);
  EXPECT_EQ(Released->getMethodDecl()->getQualifiedNameAsString(),
            "lib::Pool::releasePinned");

  setProjectApis(ProjectApis());
  EXPECT_EQ(lookupApi(function(Ctx, "grab")), nullptr);
}

} // namespace
