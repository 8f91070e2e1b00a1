//===- AccessPathsTest.cpp - The same object by the same access path ------===//

#include "analysis/code/AccessPaths.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

/// The arguments of the calls of 'use' in \p Body, a function of \p Params
/// after the declarations of \p Decls.
class Arguments {
public:
  Arguments(llvm::StringRef Decls, llvm::StringRef Params,
            llvm::StringRef Body) {
    std::string Code = Decls.str() + "\nvoid use(...);\nvoid f(" +
                       Params.str() + ") {" + Body.str() + "}";
    AST = clang::tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"},
                                                   "input.cpp");
    EXPECT_TRUE(AST);
    Collector C;
    C.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
    Args = std::move(C.Args);
  }
  const clang::Expr *operator[](size_t I) const { return Args.at(I); }
  const clang::ASTContext &context() const { return AST->getASTContext(); }

private:
  struct Collector : clang::RecursiveASTVisitor<Collector> {
    std::vector<const clang::Expr *> Args;
    bool VisitCallExpr(clang::CallExpr *Call) {
      if (const clang::FunctionDecl *FD = Call->getDirectCallee();
          FD && FD->getName() == "use")
        for (const clang::Expr *Arg : Call->arguments())
          Args.push_back(Arg);
      return true;
    }
  };
  std::unique_ptr<clang::ASTUnit> AST;
  std::vector<const clang::Expr *> Args;
};

bool overlap(const Arguments &A, size_t I, size_t J) {
  std::optional<BufferPath> PI = bufferPath(A[I], A.context());
  std::optional<BufferPath> PJ = bufferPath(A[J], A.context());
  return PI && PJ && mayOverlap(*PI, *PJ);
}

constexpr const char *Structs = R"(
  struct Mesh { float g; };
  struct Param { Mesh *rmesh; };
  typedef struct Stream *stream_t;
  struct Cuda { stream_t strm[4]; };
)";

TEST(AccessPathsTest, ConstantIndicesNameOtherElements) {
  Arguments A(Structs, "Cuda *cuda, stream_t a, stream_t b, int i",
              "use(cuda->strm[0], cuda->strm[2], cuda->strm[0], a, b,"
              "    cuda->strm[i], cuda->strm[i]);");
  EXPECT_TRUE(certainlyOtherElement(A[0], A[1], A.context()));
  EXPECT_FALSE(certainlyOtherElement(A[0], A[2], A.context()));
  // Two stream variables may hold one stream: neither other nor the same.
  EXPECT_FALSE(certainlyOtherElement(A[3], A[4], A.context()));
  EXPECT_FALSE(certainlySame(A[3], A[4], A.context()));
  // 'strm[i]' may be any element, 'strm[0]' included.
  EXPECT_FALSE(certainlyOtherElement(A[5], A[0], A.context()));
  EXPECT_FALSE(certainlyOtherElement(A[5], A[6], A.context()));
  EXPECT_TRUE(certainlySame(A[5], A[6], A.context()));
  EXPECT_FALSE(certainlySame(A[0], A[1], A.context()));
}

TEST(AccessPathsTest, ArithmeticIndicesAreWrittenOut) {
  Arguments A(Structs, "stream_t *stream, int dev, int n",
              "use(stream[dev * n + 1], stream[dev * n + 1], stream[dev * n],"
              "    stream[(dev + 1) * n + 1]);");
  EXPECT_TRUE(certainlySame(A[0], A[1], A.context()));
  EXPECT_FALSE(certainlySame(A[0], A[2], A.context()));
  EXPECT_FALSE(certainlySame(A[0], A[3], A.context()));
  // One array, indices a constant apart: two elements for any 'dev'.
  EXPECT_TRUE(certainlyOtherElement(A[0], A[2], A.context()));
  EXPECT_FALSE(certainlyOtherElement(A[0], A[1], A.context()));
  EXPECT_FALSE(certainlyOtherElement(A[0], A[3], A.context()));
}

TEST(AccessPathsTest, MembersOfElementsAreOnePathEach) {
  Arguments A(Structs, "Param *cd",
              "use(cd[3].rmesh, cd[0].rmesh, cd[3].rmesh, &cd[3].rmesh[0]);");
  EXPECT_TRUE(overlap(A, 0, 2));
  EXPECT_FALSE(overlap(A, 0, 1));
  // '&p[0]' is p at offset 0, within p.
  EXPECT_TRUE(overlap(A, 0, 3));
}

TEST(AccessPathsTest, OffsetsAreWrittenOut) {
  Arguments A("", "float *h, long crt, long n",
              "use(h + crt, h + crt + n, h + crt, &h[crt], h);");
  EXPECT_TRUE(overlap(A, 0, 2));
  // Two offsets written out are two blocks of a pipeline's buffer.
  EXPECT_FALSE(overlap(A, 0, 1));
  // The pointer itself may reach any offset.
  EXPECT_TRUE(overlap(A, 0, 4));
  EXPECT_TRUE(overlap(A, 0, 3));
}

TEST(AccessPathsTest, OtherIndicesAreUnknown) {
  Arguments A("int g();", "float **d", "use(d[g()], d[g()]);");
  EXPECT_FALSE(bufferPath(A[0], A.context()));
  EXPECT_FALSE(overlap(A, 0, 1));
}

} // namespace
