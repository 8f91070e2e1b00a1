//===- FileResultTest.cpp - The worker-to-driver encoding -----------------===//

#include "report/FileResult.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

FileResult sample() {
  FileResult R;
  ResolvedFinding F;
  F.CheckId = "cuda-async-pageable-copy";
  // Paths are bytes, not UTF-8: they must come back unchanged.
  F.Loc = {"/src/caf\xe9.cu", 12, 3, 240};
  F.Message = "'cudaMemcpyAsync' from pageable host memory";
  F.Notes.push_back({{"/src/caf\xe9.cu", 10, 7, 200}, "allocated here"});
  F.Fixes.push_back(
      {{"/src/a.cu", 1, 1, 0}, {"/src/a.cu", 1, 5, 4}, "cudaMallocHost", 77});
  RenderedMessage M;
  M.File = "/src/a.cu";
  M.Offset = 240;
  M.Message = "warning text";
  M.Ranges = {{240, 5}};
  M.Fixes = {{0, 4, std::string("x\0y", 3)}};
  F.Messages = {M};
  F.LineText = "  cudaMemcpyAsync(d, h, n, kind, s);";
  F.PointedCode = "cudaMemcpyAsync(d,h,n,kind,s)";
  F.BuildDirectory = "/build";
  R.Findings = {F, F};
  R.ToleratedErrors = FailedFile{"/src/b.cu",
                                 "b.cu:1:1: error: x\n",
                                 "",
                                 {"err_shared_var_init", "err_x"}};
  R.File = "/src/caf\xe9.cu";
  R.ParseMicroseconds = 812345;
  R.AnalysisMicroseconds = 12345;
  return R;
}

TEST(FileResultTest, RoundTripsEveryField) {
  FileResult In = sample();
  llvm::Expected<FileResult> Out = decodeFileResult(encodeFileResult(In));
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  ASSERT_EQ(Out->Findings.size(), 2u);
  const ResolvedFinding &F = Out->Findings[1];
  EXPECT_EQ(F.Loc.File, "/src/caf\xe9.cu");
  EXPECT_EQ(F.Loc.Offset, 240u);
  EXPECT_EQ(F.Notes[0].Loc.Line, 10u);
  EXPECT_EQ(F.Fixes[0].ParsedContentHash, 77u);
  EXPECT_EQ(F.Fixes[0].End.Column, 5u);
  EXPECT_EQ(std::get<2>(F.Messages[0].Fixes[0]), std::string("x\0y", 3));
  EXPECT_EQ(F.Messages[0].Ranges[0].second, 5u);
  EXPECT_EQ(F.BuildDirectory, "/build");
  EXPECT_EQ(F.LineText, "  cudaMemcpyAsync(d, h, n, kind, s);");
  EXPECT_EQ(F.PointedCode, "cudaMemcpyAsync(d,h,n,kind,s)");
  EXPECT_FALSE(Out->Failure);
  ASSERT_TRUE(Out->ToleratedErrors);
  EXPECT_EQ(Out->ToleratedErrors->Errors, "b.cu:1:1: error: x\n");
  EXPECT_EQ(Out->ToleratedErrors->Diagnostics,
            (std::vector<std::string>{"err_shared_var_init", "err_x"}));
  EXPECT_EQ(Out->File, "/src/caf\xe9.cu");
  EXPECT_EQ(Out->ParseMicroseconds, 812345u);
  EXPECT_EQ(Out->AnalysisMicroseconds, 12345u);
}

TEST(FileResultTest, RejectsEveryTruncation) {
  std::string Bytes = encodeFileResult(sample());
  // A worker killed while writing leaves a prefix: never a result.
  for (size_t Size = 0; Size < Bytes.size(); ++Size) {
    llvm::Expected<FileResult> Out =
        decodeFileResult(llvm::StringRef(Bytes).take_front(Size));
    ASSERT_FALSE(bool(Out)) << "a prefix of " << Size << " bytes decoded";
    llvm::consumeError(Out.takeError());
  }
}

TEST(FileResultTest, RejectsTrailingAndForeignBytes) {
  llvm::Expected<FileResult> Trailing =
      decodeFileResult(encodeFileResult(sample()) + "x");
  EXPECT_FALSE(bool(Trailing));
  llvm::consumeError(Trailing.takeError());
  llvm::Expected<FileResult> Foreign =
      decodeFileResult("PLEASE submit a bug report to https://github.com/");
  EXPECT_FALSE(bool(Foreign));
  llvm::consumeError(Foreign.takeError());
}

} // namespace
