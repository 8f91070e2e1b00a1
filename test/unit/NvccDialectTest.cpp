//===- NvccDialectTest.cpp - braced launch configurations
//------------------===//

#include "compile/NvccDialect.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

std::string rewritten(llvm::StringRef Text) {
  return rewriteNvccSyntax(Text).value_or("<unchanged>");
}

TEST(NvccDialectTest, BracedBlockSizeBecomesAnExpressionOfTheSameLength) {
  llvm::StringRef In = "k<<<grid, {bx, by, 1}, 0, stream>>>(a);";
  std::string Out = rewritten(In);
  EXPECT_EQ(Out, "k<<<grid, (bx, by, 1), 0, stream>>>(a);");
  EXPECT_EQ(Out.size(), In.size());
}

TEST(NvccDialectTest, EveryBracedArgumentAndEmptyBraces) {
  EXPECT_EQ(rewritten("k<<<{gx, gy}, {}>>>();"), "k<<<(gx, gy), 1 >>>();");
  EXPECT_EQ(rewritten("k<<< { n } ,{32,8},smem>>>();"),
            "k<<< ( n ) ,(32,8),smem>>>();");
  // Across lines, and with a comment before the brace.
  EXPECT_EQ(rewritten("k<<<g,\n  /* block */ {x,\n y}>>>();"),
            "k<<<g,\n  /* block */ (x,\n y)>>>();");
}

TEST(NvccDialectTest, BracesThatAreNotAnArgumentStayBraces) {
  // A braced list inside an argument is C++ clang already parses.
  EXPECT_EQ(rewritten("k<<<dim3{gx, gy}, f({1, 2})>>>();"), "<unchanged>");
  EXPECT_EQ(rewritten("k<<<g, b>>>(); int a[] = {1, 2};"), "<unchanged>");
  // Several launches: each one's own arguments only.
  EXPECT_EQ(rewritten("k<<<g, {1, 2}>>>(); x = {3}; k<<<{4}, b>>>();"),
            "k<<<g, (1, 2)>>>(); x = {3}; k<<<(4), b>>>();");
}

TEST(NvccDialectTest, CommentsLiteralsAndConflictMarkersAreNotCode) {
  EXPECT_EQ(rewritten("// k<<<g, {1, 2}>>>();\n"), "<unchanged>");
  EXPECT_EQ(rewritten("/* k<<<g, {1, 2}>>>(); */"), "<unchanged>");
  EXPECT_EQ(rewritten("s = \"k<<<g, {1, 2}>>>\";"), "<unchanged>");
  EXPECT_EQ(rewritten("s = R\"x(k<<<g, {1, 2}>>>)x\";"), "<unchanged>");
  EXPECT_EQ(rewritten("<<<<<<< HEAD\n{1, 2}\n"), "<unchanged>");
  // A digit separator is no character literal.
  EXPECT_EQ(rewritten("n = 1'000; k<<<g, {n, 1}>>>();"),
            "n = 1'000; k<<<g, (n, 1)>>>();");
}

TEST(NvccDialectTest, UnfinishedConfigurationsAreLeftAlone) {
  EXPECT_EQ(rewritten("k<<<g, {1, 2"), "<unchanged>");
  EXPECT_EQ(rewritten("k<<<g, {1; 2}>>>();"), "<unchanged>");
  EXPECT_EQ(rewritten("<<<"), "<unchanged>");
}

TEST(NvccDialectTest, SpacedChevronsOfALaunchAreWrittenTogether) {
  // A formatter that does not know CUDA spaces the chevrons; each is
  // written unspaced, its whitespace after it: the same length, and every
  // argument where it was.
  llvm::StringRef In = "k << < grid, block >> > (a);";
  std::string Out = rewritten(In);
  EXPECT_EQ(Out, "k <<<  grid, block >>>  (a);");
  EXPECT_EQ(Out.size(), In.size());
  EXPECT_EQ(rewritten("k<< <g, b>> >(a);"), "k<<< g, b>>> (a);");
  EXPECT_EQ(rewritten("k < << g, b > >> (a);"), "k <<<  g, b >>>  (a);");
  EXPECT_EQ(rewritten("k < < < g, b > > > (a);"), "k <<<   g, b >>>   (a);");
  // Across lines (the lines keep their number), with an unspaced close,
  // and with a braced block size.
  EXPECT_EQ(rewritten("k <<\n  < g, b >>\n  > (a);"),
            "k <<<\n   g, b >>>\n   (a);");
  EXPECT_EQ(rewritten("k << < g, b>>>(a);"), "k <<<  g, b>>>(a);");
  EXPECT_EQ(rewritten("k << < g, {1, 2} >> > (a);"),
            "k <<<  g, (1, 2) >>>  (a);");
  // A shift and a template inside the configuration stay what they are.
  EXPECT_EQ(rewritten("k << < n >> 1, A<B<int>> >::v >> > (a);"),
            "k <<<  n >> 1, A<B<int>> >::v >>>  (a);");
}

TEST(NvccDialectTest, ValidCxxThatLooksLikeSpacedChevronsIsLeftAlone) {
  // A specialization of operator<< or operator< is valid C++.
  EXPECT_EQ(rewritten("os = operator<< <T>(os, x);"), "<unchanged>");
  EXPECT_EQ(rewritten("friend ostream &operator<< <>(ostream &, X<T>);"),
            "<unchanged>");
  EXPECT_EQ(rewritten("bool b = operator< <int>(a, c);"), "<unchanged>");
  EXPECT_EQ(rewritten("f(&X::operator << <char>);"), "<unchanged>");
  // Nested templates closed with spaces, shifts, comparisons.
  EXPECT_EQ(rewritten("std::vector<std::vector<int>> > v;"), "<unchanged>");
  EXPECT_EQ(rewritten("std::vector<std::vector<std::vector<int> > > v;"),
            "<unchanged>");
  EXPECT_EQ(rewritten("std::cout << x << y; a <<= 2; b = c < d;"),
            "<unchanged>");
  // No closing chevrons followed by arguments: no launch.
  EXPECT_EQ(rewritten("x << < y;"), "<unchanged>");
  EXPECT_EQ(rewritten("x << < y >> > z;"), "<unchanged>");
  // Comments and literals are not code.
  EXPECT_EQ(rewritten("// k << < g, b >> > (a);\n"), "<unchanged>");
  EXPECT_EQ(rewritten("s = \"k << < g, b >> > (a)\";"), "<unchanged>");
}

TEST(NvccDialectTest, TheFileSystemServesTheRewrittenTextAtTheSameSize) {
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Memory->addFile("/a.cu", 0,
                  llvm::MemoryBuffer::getMemBuffer("k<<<g, {1, 2}>>>();"));
  Memory->addFile("/b.cu", 0, llvm::MemoryBuffer::getMemBuffer("int b;"));
  auto FS = makeNvccDialectFileSystem(Memory);
  auto A = FS->getBufferForFile("/a.cu");
  ASSERT_TRUE(bool(A));
  EXPECT_EQ((*A)->getBuffer(), "k<<<g, (1, 2)>>>();");
  EXPECT_EQ(FS->status("/a.cu")->getSize(), (*A)->getBufferSize());
  auto B = FS->getBufferForFile("/b.cu");
  ASSERT_TRUE(bool(B));
  EXPECT_EQ((*B)->getBuffer(), "int b;");
  EXPECT_FALSE(bool(FS->getBufferForFile("/missing.cu")));
  // The name the underlying file system resolved, whatever the file reads
  // as: the FileManager's real path, which the caches key inputs by.
  auto File = FS->openFileForRead("/a.cu");
  ASSERT_TRUE(bool(File));
  EXPECT_EQ(*(*File)->getName(), "/a.cu");
}

TEST(NvccDialectTest, BlankedSpansReadAsSpacesTheirLineBreaksKept) {
  std::string Text = "__host__ __device__\nvoid A::f<T>() {}";
  blankSpans(Text, {{9, 10}, {29, 3}, {17, 5}});
  EXPECT_EQ(Text, "__host__           \n  id A::f   () {}");
  // Only the file the spans are of, known by its unique ID.
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Memory->addFile("/a.cu", 0,
                  llvm::MemoryBuffer::getMemBuffer("__device__ void f();"));
  Memory->addFile("/b.cu", 0,
                  llvm::MemoryBuffer::getMemBuffer("__device__ void f();"));
  BlankedFile A{Memory->status("/a.cu")->getUniqueID(), "/a.cu", {{0, 10}}};
  auto Rewritten = std::make_shared<RewrittenFiles>();
  auto FS = makeNvccDialectFileSystem(Memory, Rewritten, {A});
  EXPECT_EQ((*FS->getBufferForFile("/a.cu"))->getBuffer(),
            "           void f();");
  EXPECT_EQ((*FS->getBufferForFile("/b.cu"))->getBuffer(),
            "__device__ void f();");
  EXPECT_EQ(*Rewritten, RewrittenFiles{"/a.cu"});
}

} // namespace

namespace {

TEST(NvccDialectTest, LinkageGluedToAKernelQualifierIsBlankedOut) {
  llvm::StringRef In = "extern \"C\"__global__\nvoid k(float *x) {}";
  std::string Out = rewritten(In);
  EXPECT_EQ(Out, "          __global__\nvoid k(float *x) {}");
  EXPECT_EQ(Out.size(), In.size());
  EXPECT_EQ(rewritten("extern  \"C\"__device__ int f();"),
            "           __device__ int f();");
  // With a space, or another suffix, or not after 'extern': C++ as it is.
  EXPECT_EQ(rewritten("extern \"C\" __global__ void k();"), "<unchanged>");
  EXPECT_EQ(rewritten("auto s = \"C\"_sv;"), "<unchanged>");
  EXPECT_EQ(rewritten("f(\"C\"__global__);"), "<unchanged>");
  EXPECT_EQ(rewritten("myextern \"C\"__global__ void k();"), "<unchanged>");
}

} // namespace
