//===- NvccAcceptedErrorsTest.cpp - What clang rejects, nvcc accepts ------===//

#include "run/NvccAcceptedErrors.h"
#include "run/ParseErrors.h"
#include "clang/Basic/AllDiagnostics.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

const char *const CudaMacros = R"(
  #define __global__ __attribute__((global))
  #define __device__ __attribute__((device))
  #define __host__ __attribute__((host))
)";

/// \p Code parsed as a CUDA file's host side, its diagnostics collected.
struct Parsed {
  ParseErrorCollector Errors{isNvccDowngraded};
  std::unique_ptr<clang::ASTUnit> AST;

  Parsed(llvm::StringRef Code, std::vector<std::string> Args,
         llvm::StringRef File) {
    AST = clang::tooling::buildASTFromCodeWithArgs(
        Code, Args, File, "clang-tool",
        std::make_shared<clang::PCHContainerOperations>(),
        clang::tooling::getClangStripDependencyFileAdjuster(), {}, &Errors);
  }
};

std::vector<std::string> cudaArgs() {
  return {"-x",         "cuda",       "--cuda-host-only",
          "-nocudainc", "-nocudalib", "-Wno-unknown-cuda-version"};
}

/// The text \p Spans blank in \p Code.
std::vector<std::string> blanked(llvm::StringRef Code,
                                 const BlankedSpans &Spans) {
  std::vector<std::string> Out;
  for (const BlankedFile &F : Spans)
    for (const BlankedSpan &S : F.Spans)
      Out.push_back(Code.substr(S.Offset, S.Length).str());
  return Out;
}

TEST(NvccAcceptedErrorsTest, EveryDiagnosticListedIsClangsErrorByDefault) {
  auto IDs = clang::DiagnosticIDs::create();
  for (const NvccAcceptedDiagnostic &D : nvccAcceptedDiagnostics()) {
    EXPECT_EQ(diagnosticName(D.ID), D.Name);
    EXPECT_TRUE(IDs->isDefaultMappingAsError(D.ID)) << D.Name;
    // A downgrade is for what clang can map: a warning or an extension.
    EXPECT_EQ(D.How == NvccAcceptance::Downgrade,
              IDs->isWarningOrExtension(D.ID))
        << D.Name;
    EXPECT_NE(D.Languages, 0u) << D.Name;
  }
  EXPECT_EQ(diagnosticName(clang::diag::err_expected), "err_expected");
}

TEST(NvccAcceptedErrorsTest, TheCompilerIsTheFilesLanguages) {
  clang::LangOptions C, Cxx, Cuda, Hip;
  Cxx.CPlusPlus = Cuda.CPlusPlus = Hip.CPlusPlus = true;
  Cuda.CUDA = Hip.CUDA = true;
  Hip.HIP = true;
  EXPECT_EQ(nvccLanguageOf(C), unsigned(NvccLanguage::C));
  EXPECT_EQ(nvccLanguageOf(Cxx), unsigned(NvccLanguage::Cxx));
  EXPECT_EQ(nvccLanguageOf(Cuda), unsigned(NvccLanguage::Cuda));
  // hipcc is clang: nothing clang rejects is accepted.
  EXPECT_EQ(nvccLanguageOf(Hip), 0u);
  // g++ initializes a variable-length array, gcc does not.
  EXPECT_TRUE(
      isHostDialectError(clang::diag::err_variable_object_no_init, Cxx));
  EXPECT_FALSE(isHostDialectError(clang::diag::err_variable_object_no_init, C));
  EXPECT_FALSE(
      isHostDialectError(clang::diag::err_variable_object_no_init, Hip));
}

TEST(NvccAcceptedErrorsTest, ADowngradedDiagnosticIsReportedAsClangsError) {
  // As a warning (the driver maps it to a remark before the parse).
  Parsed P("void take(void **p);\n"
           "void f(void) { float *x; take(&x); }\n",
           {"-x", "c", "-Wno-error=incompatible-pointer-types"}, "input.c");
  ASSERT_TRUE(P.AST);
  EXPECT_EQ(P.Errors.errors(), 0u);
  ASSERT_EQ(P.Errors.diagnostics().size(), 1u);
  EXPECT_TRUE(P.Errors.diagnostics()[0].Downgraded);
  EXPECT_EQ(diagnosticName(P.Errors.diagnostics()[0].ID),
            "ext_typecheck_convert_incompatible_pointer");
  EXPECT_NE(P.Errors.allText().find(
                "error: incompatible pointer types passing 'float **'"),
            std::string::npos);
  EXPECT_EQ(P.Errors.text(), "");
}

TEST(NvccAcceptedErrorsTest, ARedeclarationWithOtherSpacesLosesItsDevice) {
  std::string Code = std::string(CudaMacros) + R"(
    struct A { void f(); __device__ void d(); };
    __host__ __device__ void A::f() {}
    __host__ __attribute__((device)) void A::d() {}
    __global__ void k();
  )";
  Parsed P(Code, cudaArgs(), "input.cu");
  ASSERT_TRUE(P.AST);
  ASSERT_EQ(P.Errors.errors(), 2u);
  BlankedSpans Spans = nvccRewritesFor(P.Errors, P.AST->getASTContext());
  // The definitions' and the declaration's '__device__', the macro or the
  // attribute's name; never '__host__', never another function's.
  EXPECT_EQ(blanked(Code, Spans),
            (std::vector<std::string>{"__device__", "__device__", "device"}));
  ASSERT_EQ(Spans.size(), 1u);
  EXPECT_EQ(Spans[0].Name, "input.cu");
}

TEST(NvccAcceptedErrorsTest, APrimaryTemplatesOwnArgumentsAreBlanked) {
  std::string Code = R"(
    template <typename T, int N> void f(T (&a)[N]);
    template <typename T, int N> void f<T, N>(T (&a)[N]) {}
    template <typename... Ts> void g(Ts...);
    template <typename... Ts> void g<Ts...>(Ts...) {}
    template <typename T> void h(T *);
    template <typename T> void h<T *>(T *) {}
  )";
  Parsed P(Code, cudaArgs(), "input.cu");
  ASSERT_TRUE(P.AST);
  ASSERT_EQ(P.Errors.errors(), 3u);
  // 'h<T *>' names no parameter of its own: a partial specialization,
  // which nvcc's reading does not make a definition.
  EXPECT_EQ(blanked(Code, nvccRewritesFor(P.Errors, P.AST->getASTContext())),
            (std::vector<std::string>{"<T, N>", "<Ts...>"}));
}

TEST(NvccAcceptedErrorsTest, NoRewriteForOtherErrors) {
  Parsed P(std::string(CudaMacros) + "void f() { undeclared(); }", cudaArgs(),
           "input.cu");
  ASSERT_TRUE(P.AST);
  EXPECT_EQ(P.Errors.errors(), 1u);
  EXPECT_TRUE(nvccRewritesFor(P.Errors, P.AST->getASTContext()).empty());
}

} // namespace
