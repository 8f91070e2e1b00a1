//===- KernelWritesTest.cpp - What a kernel does to what it is given ------===//

#include "analysis/code/KernelWrites.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

constexpr const char *Prelude = R"(
  #define __global__ __attribute__((global))
  #define __device__ __attribute__((device))
  struct uint3 { unsigned x, y, z; };
  extern const __device__ uint3 threadIdx;
  __device__ int atomicAdd(int *address, int val);
)";

/// How the function \p Name of \p Code uses what its parameter \p Index
/// points to, or, given \p Fields, what the member path of those names
/// (each a field of the record before it) points to.
std::optional<PointeeUse>
useOf(llvm::StringRef Code, llvm::StringRef Name, unsigned Index,
      std::initializer_list<llvm::StringRef> Fields = {}) {
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(
          (Prelude + Code).str(),
          {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
           "-Wno-unknown-cuda-version"},
          "input.cu");
  EXPECT_TRUE(AST);
  if (!AST)
    return std::nullopt;
  for (clang::Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
      if (FD->getName() == Name && FD->hasBody()) {
        llvm::SmallVector<const clang::FieldDecl *, 2> Path;
        clang::QualType T = FD->getParamDecl(Index)->getType();
        for (llvm::StringRef Field : Fields) {
          if (T->isPointerType())
            T = T->getPointeeType();
          const clang::RecordDecl *RD = T->getAsRecordDecl();
          if (!RD)
            break;
          for (const clang::FieldDecl *F : RD->fields())
            if (F->getName() == Field)
              Path.push_back(F);
          T = Path.back()->getType();
        }
        EXPECT_EQ(Path.size(), Fields.size());
        return pointeeUse(FD, Index, Path);
      }
  ADD_FAILURE() << "no definition of " << Name.str();
  return std::nullopt;
}

TEST(KernelWritesTest, StoresThroughTheParameterOrADerivedPointerWrite) {
  EXPECT_EQ(useOf("__global__ void k(int *p) { p[threadIdx.x] = 1; }", "k", 0),
            PointeeUse::Write);
  EXPECT_EQ(useOf("__global__ void k(int *p) { *p += 2; }", "k", 0),
            PointeeUse::Write);
  EXPECT_EQ(useOf("__global__ void k(int *p) { p[0]++; }", "k", 0),
            PointeeUse::Write);
  EXPECT_EQ(useOf("struct S { int v; }; __global__ void k(S *p) { p->v = 1; }",
                  "k", 0),
            PointeeUse::Write);
  EXPECT_EQ(useOf("__global__ void k(int *p, int o) { int *q = p + o; "
                  "q[threadIdx.x] = 0; }",
                  "k", 0),
            PointeeUse::Write);
}

TEST(KernelWritesTest, DeviceFunctionsAreFollowed) {
  EXPECT_EQ(useOf("__device__ void put(int *q) { q[0] = 1; }"
                  "__global__ void k(int *p) { put(p + 4); }",
                  "k", 0),
            PointeeUse::Write);
  EXPECT_EQ(useOf("__device__ int get(int *q) { return q[0]; }"
                  "__global__ void k(int *p, int *out) { out[0] = get(p); }",
                  "k", 0),
            PointeeUse::Read);
  // No body here: the atomics write what they are given.
  EXPECT_EQ(useOf("__global__ void k(int *p) { atomicAdd(&p[1], 1); }", "k", 0),
            PointeeUse::Write);
}

TEST(KernelWritesTest, ReadsAndUntouchedParameters) {
  EXPECT_EQ(useOf("__global__ void k(const int *in, int *out) "
                  "{ out[0] = in[threadIdx.x]; }",
                  "k", 0),
            PointeeUse::Read);
  EXPECT_EQ(
      useOf("__global__ void k(int *in, int *out) { out[0] = in[0]; }", "k", 0),
      PointeeUse::Read);
  EXPECT_EQ(useOf("__global__ void k(int *unused, int n) {}", "k", 0),
            PointeeUse::None);
  // Compared, not dereferenced.
  EXPECT_EQ(useOf("__global__ void k(int *p, int *out) "
                  "{ if (p) out[0] = 1; }",
                  "k", 0),
            PointeeUse::None);
}

TEST(KernelWritesTest, PointerMembersOfStructParameters) {
  constexpr const char *Storage = "struct B { int *a; int *b; };"
                                  "struct N { B x; B y; };";
  auto Use = [&](const char *Kernel, std::initializer_list<llvm::StringRef> F) {
    return useOf((llvm::Twine(Storage) + Kernel).str(), "k", 0, F);
  };
  // By value, by address, nested: the member written is written, the
  // other one is not touched.
  EXPECT_EQ(Use("__global__ void k(B s) { s.b[threadIdx.x] = 1; }", {"b"}),
            PointeeUse::Write);
  EXPECT_EQ(Use("__global__ void k(B s) { s.b[threadIdx.x] = 1; }", {"a"}),
            PointeeUse::None);
  EXPECT_EQ(Use("__global__ void k(B *s) { s->a[0] = s->b[0]; }", {"a"}),
            PointeeUse::Write);
  EXPECT_EQ(Use("__global__ void k(B *s) { s->a[0] = s->b[0]; }", {"b"}),
            PointeeUse::Read);
  EXPECT_EQ(Use("__global__ void k(N s) { s.y.a[0] = 1; }", {"y", "a"}),
            PointeeUse::Write);
  EXPECT_EQ(Use("__global__ void k(N s) { s.y.a[0] = 1; }", {"x", "a"}),
            PointeeUse::None);
  // A local pointer taken from the member.
  EXPECT_EQ(Use("__global__ void k(B s) { int *q = s.a + 4; *q = 0; }", {"a"}),
            PointeeUse::Write);
  // The member's own value stored elsewhere, not what it points to.
  EXPECT_EQ(Use("__global__ void k(B s, int **out) { out[0] = s.a; }", {"a"}),
            PointeeUse::None);
}

TEST(KernelWritesTest, OnlyPointerParametersHaveAnAnswer) {
  EXPECT_EQ(useOf("__global__ void k(int n, int *p) { p[0] = n; }", "k", 0),
            std::nullopt);
}

} // namespace
