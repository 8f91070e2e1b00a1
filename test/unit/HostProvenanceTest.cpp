//===- HostProvenanceTest.cpp - The provenance lattice and dataflow -------===//

#include "analysis/provenance/HostProvenance.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;
using namespace clang::ast_matchers;

namespace {

const char *Declarations = R"(
  typedef unsigned long size_t;
  extern "C" {
  void *malloc(size_t);
  void free(void *);
  int cudaMallocHost(void **, size_t);
  int cudaMallocManaged(void **, size_t, unsigned = 1);
  int cudaHostRegister(void *, size_t, unsigned);
  int cudaHostUnregister(void *);
  int cudaFreeHost(void *);
  }
  void use(const void *);
  void unknown(float **);
)";

/// The provenance of the argument of every call to use() in \p Body's
/// function 'f', in source order.
std::vector<std::optional<MemoryKind>> provenanceAtUses(llvm::StringRef Body) {
  std::string Code = std::string(Declarations) + Body.str();
  auto AST = clang::tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"});
  clang::ASTContext &Ctx = AST->getASTContext();
  auto Function = selectFirst<clang::FunctionDecl>(
      "f", match(functionDecl(hasName("f"), isDefinition()).bind("f"), Ctx));
  FunctionProvenance Provenance(Function, Ctx, /*Summaries=*/nullptr);
  std::vector<std::optional<MemoryKind>> Result;
  // use() is not in the catalog: ask at the nearest catalogued call instead,
  // a free() placed right before it by each test.
  for (const BoundNodes &N :
       match(callExpr(callee(functionDecl(hasName("free"))),
                      hasArgument(0, expr().bind("arg")))
                 .bind("call"),
             Ctx))
    Result.push_back(Provenance
                         .pointerAt(N.getNodeAs<clang::CallExpr>("call"),
                                    N.getNodeAs<clang::Expr>("arg"))
                         .Kind);
  return Result;
}

using Kinds = std::vector<std::optional<MemoryKind>>;
constexpr auto Pageable = MemoryKind::Pageable;
constexpr auto Pinned = MemoryKind::Pinned;
constexpr auto Registered = MemoryKind::Registered;
constexpr std::nullopt_t Unknown = std::nullopt;

TEST(HostProvenance, AllocationsAndOutParameters) {
  EXPECT_EQ(provenanceAtUses(R"(void f() {
    float *p = (float *)malloc(4); free(p);
    float *q; cudaMallocHost((void **)&q, 4); free(q);
    float *m; cudaMallocManaged(reinterpret_cast<void **>(&m), 4); free(m);
  })"),
            (Kinds{Pageable, Pinned, MemoryKind::Managed}));
}

TEST(HostProvenance, FlowSensitiveReassignment) {
  EXPECT_EQ(provenanceAtUses(R"(void f() {
    float *p = (float *)malloc(4); free(p);
    cudaMallocHost((void **)&p, 4); free(p);
    p = (float *)malloc(4); free(p + 1);
  })"),
            (Kinds{Pageable, Pinned, Pageable}));
}

TEST(HostProvenance, JoinsAgreeingPathsOnly) {
  EXPECT_EQ(provenanceAtUses(R"(void f(bool c) {
    float *p;
    if (c) p = (float *)malloc(4); else p = new float[4];
    free(p);
    float *q;
    if (c) q = (float *)malloc(4); else cudaMallocHost((void **)&q, 4);
    free(q);
  })"),
            (Kinds{Pageable, Unknown}));
}

TEST(HostProvenance, RegistrationRanges) {
  EXPECT_EQ(provenanceAtUses(R"(void f(bool c) {
    float *p = (float *)malloc(4);
    float *alias = p + 1;
    cudaHostRegister(p, 4, 0);
    free(alias);
    cudaHostUnregister(p);
    free(alias);
    if (c) cudaHostRegister(p, 4, 0);
    free(p);
  })"),
            (Kinds{Registered, Pageable, Unknown}));
}

TEST(HostProvenance, LoopsReachAFixpoint) {
  EXPECT_EQ(provenanceAtUses(R"(void f(int n) {
    float *p = (float *)malloc(4);
    for (int i = 0; i < n; ++i) {
      free(p);
      if (i == 3) cudaMallocHost((void **)&p, 4);
    }
  })"),
            (Kinds{Unknown}));
}

TEST(HostProvenance, EscapesAndParametersAreUnknown) {
  EXPECT_EQ(provenanceAtUses(R"(void f(float *param) {
    free(param);
    float *p = (float *)malloc(4);
    unknown(&p);
    free(p);
    float *q = (float *)malloc(4);
    float **stored = &q;
    free(q);
    (void)stored;
  })"),
            (Kinds{Unknown, Unknown, Unknown}));
}

TEST(PointerValue, JoinIsALeastUpperBound) {
  // Stand-ins for two statements, aligned as clang aligns Stmt: the origin
  // union keeps its tag in the pointers' low bits.
  alignas(16) static char A[16], B[16];
  const auto *SA = reinterpret_cast<const clang::Stmt *>(A);
  const auto *SB = reinterpret_cast<const clang::Stmt *>(B);
  PointerValue PA = PointerValue::known(Pageable, SA);
  PointerValue PB = PointerValue::known(Pageable, SB);
  EXPECT_EQ(PointerValue::join(PointerValue::unset(), PA), PA);
  EXPECT_EQ(PointerValue::join(PA, PA), PA);
  PointerValue Both = PointerValue::join(PA, PB);
  EXPECT_TRUE(Both.isKnown());
  EXPECT_EQ(Both.origins().size(), 2u);
  EXPECT_EQ(Both, PointerValue::join(PB, PA));
  EXPECT_EQ(PointerValue::join(PA, PointerValue::known(Pinned, SB)).tag(),
            PointerValue::Tag::Unknown);
  EXPECT_EQ(PointerValue::join(PA, PointerValue::unknown()).tag(),
            PointerValue::Tag::Unknown);
}

} // namespace
