//===- TraversalScopeTest.cpp - What of a unit the checks walk ------------===//

#include "analysis/code/TraversalScope.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <set>

using namespace cuda_async_lint;

namespace {

/// The names of the declarations of \p Code's host traversal scope that
/// name something.
std::set<std::string> scopeOf(llvm::StringRef Code) {
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(
          Code,
          {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
           "-Wno-unknown-cuda-version"},
          "input.cu");
  EXPECT_TRUE(AST);
  std::set<std::string> Names;
  if (!AST)
    return Names;
  for (clang::Decl *D :
       hostTraversalScope(AST->getASTContext(), /*SystemHeaders=*/false))
    if (const auto *ND = llvm::dyn_cast<clang::NamedDecl>(D))
      Names.insert(ND->getNameAsString());
  return Names;
}

TEST(TraversalScopeTest, DeviceOnlyFunctionsAreLeftOut) {
  std::set<std::string> Scope = scopeOf(R"(
    #define __global__ __attribute__((global))
    #define __device__ __attribute__((device))
    #define __host__ __attribute__((host))
    __global__ void kernel() {}
    __device__ int deviceOnly() { return 0; }
    template <int N> __device__ int deviceTemplate() { return N; }
    __host__ __device__ int both() { return 1; }
    void host() { auto inHost = [] { return 0; }; inHost(); }
    template <typename T> void hostTemplate(T) {}
    struct Holder { void *data; };
    int global;
    namespace kernels {
    __global__ void nestedKernel() {}
    void nestedHost() {}
    namespace inner { __device__ int innerDevice() { return 2; } }
    }
    extern "C" {
    __device__ int cDevice() { return 3; }
    void cHost() {}
    }
  )");
  for (const char *Host : {"both", "host", "hostTemplate", "Holder", "global",
                           "nestedHost", "cHost"})
    EXPECT_TRUE(Scope.count(Host)) << Host;
  for (const char *Device :
       {"kernel", "deviceOnly", "deviceTemplate", "nestedKernel", "innerDevice",
        "cDevice", "kernels", "inner"})
    EXPECT_FALSE(Scope.count(Device)) << Device;
}

} // namespace
