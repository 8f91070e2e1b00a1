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

TEST(AccessPathsTest, AnIndexThatTookEveryValueIsAnyElement) {
  Arguments A("", "float **d, float **e, float *h, int dev, long off",
              "use(d[dev], d[dev + 1], e[dev + 1], h + off, h + 2 * off);");
  // Written out, 'd[dev]' and 'd[dev + 1]' are two elements.
  EXPECT_FALSE(overlap(A, 0, 1));
  // Where 'dev' counts a loop that ran to its end, 'd[dev]' was each.
  auto UsesDev = [](const clang::Expr *E) {
    const auto *DRE =
        llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl()->getName() == "dev";
  };
  std::optional<BufferPath> Any = bufferPath(A[0], A.context(), UsesDev);
  std::optional<BufferPath> Next = bufferPath(A[1], A.context());
  std::optional<BufferPath> Other = bufferPath(A[2], A.context());
  ASSERT_TRUE(Any && Next && Other);
  EXPECT_TRUE(mayOverlap(*Any, *Next));
  EXPECT_TRUE(mayOverlap(*Next, *Any));
  EXPECT_FALSE(mayOverlap(*Any, *Other));
  // An offset of any value is anywhere in the buffer.
  auto UsesOff = [](const clang::Expr *E) {
    const auto *DRE =
        llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl()->getName() == "off";
  };
  std::optional<BufferPath> Anywhere = bufferPath(A[3], A.context(), UsesOff);
  std::optional<BufferPath> Block = bufferPath(A[4], A.context());
  ASSERT_TRUE(Anywhere && Block);
  EXPECT_TRUE(mayOverlap(*Anywhere, *Block));
}

TEST(AccessPathsTest, ElementsNoValuesMakeEqual) {
  Arguments A(
      "", "int *s, int dev, int k, int n",
      "use(s[dev * 2], s[dev * 2 + 1], s[k * 2 + 3], s[0], s[1],"
      "    s[dev], s[dev + 1], s[dev * n], s[dev * n + 1], s[4 * dev]);");
  auto Other = [&](size_t I, size_t J) {
    return alwaysOtherElement(A[I], A[J], A.context());
  };
  // One device's two streams, whichever devices and variables.
  EXPECT_TRUE(Other(0, 1));
  EXPECT_TRUE(Other(0, 2));
  EXPECT_FALSE(Other(1, 2));
  EXPECT_TRUE(Other(3, 4));
  EXPECT_TRUE(Other(1, 3));
  EXPECT_FALSE(Other(0, 3));
  // Stride 2 and stride 4 meet at every even index.
  EXPECT_FALSE(Other(0, 9));
  EXPECT_TRUE(Other(1, 9));
  // 's[dev + 1]' of one iteration is 's[dev]' of the next; a stride not
  // known may be 1.
  EXPECT_FALSE(Other(5, 6));
  EXPECT_FALSE(Other(7, 8));
}

TEST(AccessPathsTest, OtherIndicesAreUnknown) {
  Arguments A("int g();", "float **d", "use(d[g()], d[g()]);");
  EXPECT_FALSE(bufferPath(A[0], A.context()));
  EXPECT_FALSE(overlap(A, 0, 1));
}

} // namespace
