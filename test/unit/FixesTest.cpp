//===- FixesTest.cpp - --fix writes only what was analysed, atomically ----===//

#include "report/Fixes.h"
#include "support/AtomicFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <set>

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
  Report report(llvm::StringRef Parsed) {
    Report R;
    ResolvedFinding F;
    ResolvedFix Fix;
    Fix.Begin = {File, 1, 3, 2};
    Fix.End = {File, 1, 7, 6};
    Fix.Replacement = "cudaFreeHost";
    Fix.ParsedContentHash = contentHash(Parsed);
    F.Fixes.push_back(Fix);
    RenderedMessage Warning;
    Warning.Message = "'free' releases pinned memory";
    F.Messages.push_back(Warning);
    R.Findings.push_back(F);
    return R;
  }
  /// Plans, prepares and writes the fixes of \p R, as --fix does.
  llvm::Error apply(const Report &R, std::set<std::string> &Written) {
    auto Prepared = prepareFixes(planFixes(R));
    if (!Prepared)
      return Prepared.takeError();
    return writeFixedFiles(*Prepared, Written);
  }

  llvm::SmallString<128> Dir;
  std::string File;
};

TEST_F(FixesTest, AppliesAndKeepsPermissions) {
  std::set<std::string> Written;
  ASSERT_FALSE(static_cast<bool>(apply(report("  free(p);\n"), Written)));
  EXPECT_EQ(Written, std::set<std::string>{File});
  EXPECT_EQ(read(), "  cudaFreeHost(p);\n");
  llvm::sys::fs::file_status Status;
  ASSERT_FALSE(llvm::sys::fs::status(File, Status));
  EXPECT_EQ(Status.permissions(), llvm::sys::fs::owner_read |
                                      llvm::sys::fs::owner_write |
                                      llvm::sys::fs::owner_exe);
}

TEST_F(FixesTest, RefusesAFileThatChangedSinceItWasParsed) {
  write("// edited meanwhile\n  free(p);\n");
  std::set<std::string> Written;
  llvm::Error E = apply(report("  free(p);\n"), Written);
  ASSERT_TRUE(static_cast<bool>(E));
  std::string Message = llvm::toString(std::move(E));
  EXPECT_NE(Message.find("changed since it was analysed"), std::string::npos)
      << Message;
  EXPECT_TRUE(Written.empty());
  EXPECT_EQ(read(), "// edited meanwhile\n  free(p);\n");
}

TEST_F(FixesTest, RefusesAFileEmptiedMeanwhile) {
  write("");
  std::set<std::string> Written;
  EXPECT_TRUE(static_cast<bool>(apply(report("  free(p);\n"), Written)))
      << "an emptied file must not get the fix";
  EXPECT_EQ(read(), "");
}

TEST_F(FixesTest, NotesClaimOnlyTheFixesWritten) {
  Report R = report("  free(p);\n");
  PlannedFixes Plan = planFixes(R);
  FixSummary None = noteFixes(R, Plan, {});
  EXPECT_EQ(None.Applied, 0u);
  EXPECT_EQ(None.Total, 1u);
  ASSERT_EQ(R.Findings[0].Messages.size(), 2u);
  EXPECT_EQ(R.Findings[0].Messages[1].Message,
            "FIX-IT unable to apply suggested code changes");

  Report Done = report("  free(p);\n");
  FixSummary One = noteFixes(Done, planFixes(Done), {File});
  EXPECT_EQ(One.Applied, 1u);
  EXPECT_EQ(Done.Findings[0].Messages[1].Message,
            "FIX-IT applied suggested code changes");
}

TEST_F(FixesTest, OverlappingFixesJoinThePlanOnce) {
  Report R = report("  free(p);\n");
  R.Findings.push_back(R.Findings[0]);
  R.Findings[1].Fixes[0].Replacement = "delete";
  PlannedFixes Plan = planFixes(R);
  ASSERT_EQ(Plan.Joined.size(), 2u);
  EXPECT_EQ(Plan.Joined[0], std::vector<bool>{true});
  EXPECT_EQ(Plan.Joined[1], std::vector<bool>{false});
  FixSummary S = noteFixes(R, Plan, {File});
  EXPECT_EQ(S.Applied, 1u);
  EXPECT_EQ(S.Total, 2u);
}

TEST_F(FixesTest, TheReportQuotesTheFilesAsAnalysed) {
  auto Prepared = prepareFixes(planFixes(report("  free(p);\n")));
  ASSERT_TRUE(static_cast<bool>(Prepared));
  std::set<std::string> Written;
  ASSERT_FALSE(static_cast<bool>(writeFixedFiles(*Prepared, Written)));
  EXPECT_EQ(read(), "  cudaFreeHost(p);\n");
  auto Sources = sourcesAsAnalysed(*Prepared, Written);
  auto Quoted = Sources->getBufferForFile(File);
  ASSERT_TRUE(static_cast<bool>(Quoted));
  EXPECT_EQ((*Quoted)->getBuffer(), "  free(p);\n");
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
