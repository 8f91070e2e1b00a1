//===- ProvenanceAnalysisTest.cpp - Summaries across a translation unit ---===//

#include "analysis/provenance/ProvenanceAnalysis.h"
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
  int cudaHostRegister(void *, size_t, unsigned);
  }
)";

class ProvenanceAnalysisTest : public ::testing::Test {
protected:
  void parse(llvm::StringRef Code) {
    AST = clang::tooling::buildASTFromCodeWithArgs(
        std::string(Declarations) + Code.str(), {"-std=c++17"});
    ASSERT_TRUE(AST);
    Analysis = std::make_unique<ProvenanceAnalysis>(AST->getASTContext());
  }

  const clang::FunctionDecl *function(llvm::StringRef Name) {
    return selectFirst<clang::FunctionDecl>(
        "f", match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                   AST->getASTContext()));
  }

  const clang::FieldDecl *field(llvm::StringRef Name) {
    return selectFirst<clang::FieldDecl>(
        "f", match(fieldDecl(hasName(Name)).bind("f"), AST->getASTContext()));
  }

  /// The kind of a known value, or std::nullopt.
  static std::optional<MemoryKind> kindOf(const PointerValue &V) {
    return V.isKnown() ? std::optional<MemoryKind>(V.kind()) : std::nullopt;
  }

  std::unique_ptr<clang::ASTUnit> AST;
  std::unique_ptr<ProvenanceAnalysis> Analysis;
};

TEST_F(ProvenanceAnalysisTest, ReturnSummaries) {
  parse(R"(
    float *pageable(size_t n) { return (float *)malloc(n); }
    float *pinned(size_t n) { float *p; cudaMallocHost((void **)&p, n); return p; }
    float *either(bool c, size_t n) { return c ? pageable(n) : pinned(n); }
    float *recursive(int d) { return d ? recursive(d - 1) : (float *)malloc(4); }
    float *declaredOnly(size_t n);
  )");
  EXPECT_EQ(kindOf(Analysis->summary(function("pageable"))->Returns),
            MemoryKind::Pageable);
  EXPECT_EQ(kindOf(Analysis->summary(function("pinned"))->Returns),
            MemoryKind::Pinned);
  EXPECT_EQ(kindOf(Analysis->summary(function("either"))->Returns),
            std::nullopt);
  // The recursive call is opaque while its own summary is being computed.
  EXPECT_EQ(kindOf(Analysis->summary(function("recursive"))->Returns),
            std::nullopt);
  auto Declared = selectFirst<clang::FunctionDecl>(
      "f", match(functionDecl(hasName("declaredOnly")).bind("f"),
                 AST->getASTContext()));
  EXPECT_EQ(Analysis->summary(Declared), nullptr);
  EXPECT_TRUE(Analysis->isOpaque(Declared));
  EXPECT_FALSE(Analysis->isOpaque(function("pageable")));
}

TEST_F(ProvenanceAnalysisTest, OutParameterAndRegistrationSummaries) {
  parse(R"(
    void allocate(float **out, size_t n) { cudaMallocHost((void **)out, n); }
    void allocateRef(float *&out, size_t n) { out = (float *)malloc(n); }
    void maybe(float **out, bool c) { if (c) *out = (float *)malloc(4); }
    void pin(float *p, size_t n) { cudaHostRegister(p, n, 0); }
    void nothing(float *p) { p[0] = 1; }
  )");
  const FunctionSummary *Allocate = Analysis->summary(function("allocate"));
  ASSERT_TRUE(Allocate->OutParams[0]);
  EXPECT_EQ(kindOf(*Allocate->OutParams[0]), MemoryKind::Pinned);
  EXPECT_FALSE(Allocate->OutParams[1]);
  const FunctionSummary *Ref = Analysis->summary(function("allocateRef"));
  ASSERT_TRUE(Ref->OutParams[0]);
  EXPECT_EQ(kindOf(*Ref->OutParams[0]), MemoryKind::Pageable);
  // Stored on one path, untouched (uninitialized) on the other.
  const FunctionSummary *Maybe = Analysis->summary(function("maybe"));
  ASSERT_TRUE(Maybe->OutParams[0]);
  EXPECT_EQ(kindOf(*Maybe->OutParams[0]), MemoryKind::Pageable);
  EXPECT_EQ(Analysis->summary(function("pin"))->RegistersParam[0],
            Registration::Yes);
  EXPECT_FALSE(Analysis->summary(function("nothing"))->RegistersParam[0]);
}

TEST_F(ProvenanceAnalysisTest, FieldSummaries) {
  parse(R"(
    struct Buffers {
      float *pinned;
      float *mixed;
      float *copied;
      float *escaped;
      Buffers() {
        cudaMallocHost((void **)&pinned, 4);
        mixed = (float *)malloc(4);
        copied = (float *)malloc(4);
      }
      Buffers(const Buffers &o) : pinned(o.pinned), mixed(o.mixed),
                                  copied(o.copied), escaped(o.escaped) {}
      void reset() { cudaMallocHost((void **)&mixed, 4); pinned = nullptr; }
      float **handle() { return &escaped; }
    };
    float *never;
    struct Unused { float *never; };
  )");
  EXPECT_EQ(kindOf(Analysis->stored(field("pinned"))), MemoryKind::Pinned);
  EXPECT_EQ(kindOf(Analysis->stored(field("mixed"))), std::nullopt);
  // Copying the same field of another object adds nothing.
  EXPECT_EQ(kindOf(Analysis->stored(field("copied"))), MemoryKind::Pageable);
  EXPECT_EQ(kindOf(Analysis->stored(field("escaped"))), std::nullopt);
  EXPECT_EQ(kindOf(Analysis->stored(field("never"))), std::nullopt);
}

TEST_F(ProvenanceAnalysisTest, RegistrationAnywhere) {
  parse(R"(
    struct Staging {
      float *data;
      Staging() { data = (float *)malloc(64); }
      void pin() { cudaHostRegister(data, 64, 0); }
    };
    float *plain() { return (float *)malloc(4); }
  )");
  PointerValue Data = Analysis->stored(field("data"));
  ASSERT_TRUE(Data.isKnown());
  EXPECT_TRUE(Analysis->registeredAnywhere(Data.origins().front()));
  PointerValue Plain = Analysis->summary(function("plain"))->Returns;
  ASSERT_TRUE(Plain.isKnown());
  EXPECT_FALSE(Analysis->registeredAnywhere(Plain.origins().front()));
}

} // namespace
