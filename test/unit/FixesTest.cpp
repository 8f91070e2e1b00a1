//===- FixesTest.cpp - --fix writes only what was analysed, atomically ----===//

#include "Fixes.h"
#include "AtomicFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

class FixesTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("fixes-test", Dir));
    File = std::string(Dir) + "/a.cu";
    write("  free(p);\n");
    ASSERT_FALSE(llvm::sys::fs::setPermissions(
        File, llvm::sys::fs::owner_read | llvm::sys::fs::owner_write |
                  llvm::sys::fs::owner_exe));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  void write(llvm::StringRef Content) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    ASSERT_FALSE(EC);
    OS << Content;
  }
  std::string read() {
    auto Buffer = llvm::MemoryBuffer::getFile(File);
    return Buffer ? (*Buffer)->getBuffer().str() : "<unreadable>";
  }
  /// A report with one fix of 'free' to 'cudaFreeHost', as parsed from
  /// \p Parsed.
  PlannedFixes plan(llvm::StringRef Parsed) {
    Report R;
    ResolvedFinding F;
    ResolvedFix Fix;
    Fix.Begin = {File, 1, 3, 2};
    Fix.End = {File, 1, 7, 6};
    Fix.Replacement = "cudaFreeHost";
    Fix.ParsedContentHash = contentHash(Parsed);
    F.Fixes.push_back(Fix);
    R.Findings.push_back(F);
    FixSummary Summary;
    return planFixes(R, Summary);
  }

  llvm::SmallString<128> Dir;
  std::string File;
};

TEST_F(FixesTest, AppliesAndKeepsPermissions) {
  ASSERT_FALSE(static_cast<bool>(applyFixes(plan("  free(p);\n"))));
  EXPECT_EQ(read(), "  cudaFreeHost(p);\n");
  llvm::sys::fs::file_status Status;
  ASSERT_FALSE(llvm::sys::fs::status(File, Status));
  EXPECT_EQ(Status.permissions(), llvm::sys::fs::owner_read |
                                      llvm::sys::fs::owner_write |
                                      llvm::sys::fs::owner_exe);
}

TEST_F(FixesTest, RefusesAFileThatChangedSinceItWasParsed) {
  write("// edited meanwhile\n  free(p);\n");
  llvm::Error E = applyFixes(plan("  free(p);\n"));
  ASSERT_TRUE(static_cast<bool>(E));
  std::string Message = llvm::toString(std::move(E));
  EXPECT_NE(Message.find("changed since it was analysed"), std::string::npos)
      << Message;
  EXPECT_EQ(read(), "// edited meanwhile\n  free(p);\n");
}

TEST_F(FixesTest, RefusesAFileEmptiedMeanwhile) {
  write("");
  EXPECT_TRUE(static_cast<bool>(applyFixes(plan("  free(p);\n"))))
      << "an emptied file must not get the fix";
  EXPECT_EQ(read(), "");
}

TEST_F(FixesTest, AtomicWriteLeavesNoTemporaryFile) {
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(File, "new\n")));
  EXPECT_EQ(read(), "new\n");
  std::error_code EC;
  unsigned Entries = 0;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    ++Entries;
  EXPECT_EQ(Entries, 1u);
}

TEST_F(FixesTest, CheckWritableNamesTheProblem) {
  llvm::Error Missing = checkWritable(std::string(Dir) + "/no/such/dir/r");
  ASSERT_TRUE(static_cast<bool>(Missing));
  EXPECT_NE(llvm::toString(std::move(Missing)).find("cannot write"),
            std::string::npos);
  llvm::Error Directory = checkWritable(Dir);
  ASSERT_TRUE(static_cast<bool>(Directory));
  EXPECT_NE(llvm::toString(std::move(Directory)).find("it is a directory"),
            std::string::npos);
  EXPECT_FALSE(static_cast<bool>(checkWritable(File)));
}

} // namespace
