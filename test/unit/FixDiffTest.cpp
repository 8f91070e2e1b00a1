//===- FixDiffTest.cpp - A finding's fix-its as a unified diff ------------===//

#include "report/FixDiff.h"
#include "report/Fixes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

class FixDiffTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("fixdiff", "cu", Path));
    write("void f(float *h) {\n  cudaHostRegister(h, 4, 0);\n  free(h);\n}\n");
  }
  void TearDown() override { llvm::sys::fs::remove(Path); }

  void write(llvm::StringRef Text) {
    Content = Text.str();
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
  }
  /// A fix replacing [Begin, End) of the current content.
  ResolvedFix fix(unsigned Begin, unsigned End, llvm::StringRef Text,
                  unsigned Line) {
    ResolvedFix F;
    F.Begin = {std::string(Path), Line, 1, Begin};
    F.End = {std::string(Path), Line, 1, End};
    F.Replacement = Text.str();
    F.ParsedContentHash = contentHash(Content);
    return F;
  }

  llvm::SmallString<128> Path;
  std::string Content;
};

TEST_F(FixDiffTest, ShowsTheWholeLinesBeforeAndAfter) {
  ResolvedFinding F;
  unsigned Free = Content.find("free(h)");
  F.Fixes = {fix(Free, Free, "cudaHostUnregister(h);\n  ", 3)};
  std::optional<std::string> Diff =
      fixAsUnifiedDiff(F, "src/a.cu", *llvm::vfs::getRealFileSystem());
  ASSERT_TRUE(Diff);
  EXPECT_EQ(*Diff, "--- a/src/a.cu\n+++ b/src/a.cu\n@@ -3,1 +3,2 @@\n"
                   "-  free(h);\n"
                   "+  cudaHostUnregister(h);\n"
                   "+  free(h);\n");
}

TEST_F(FixDiffTest, NothingForAFileChangedSinceItWasParsed) {
  ResolvedFinding F;
  unsigned Free = Content.find("free");
  F.Fixes = {fix(Free, Free + 4, "cudaFreeHost", 3)};
  ASSERT_TRUE(fixAsUnifiedDiff(F, "a.cu", *llvm::vfs::getRealFileSystem()));
  write("// edited meanwhile\n" + Content);
  EXPECT_FALSE(fixAsUnifiedDiff(F, "a.cu", *llvm::vfs::getRealFileSystem()));
}

TEST_F(FixDiffTest, NothingForOverlappingOrMissingFixes) {
  ResolvedFinding F;
  EXPECT_FALSE(fixAsUnifiedDiff(F, "a.cu", *llvm::vfs::getRealFileSystem()));
  unsigned Free = Content.find("free");
  F.Fixes = {fix(Free, Free + 4, "x", 3), fix(Free + 2, Free + 3, "y", 3)};
  EXPECT_FALSE(fixAsUnifiedDiff(F, "a.cu", *llvm::vfs::getRealFileSystem()));
}

} // namespace
