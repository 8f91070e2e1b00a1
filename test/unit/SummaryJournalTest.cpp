//===- SummaryJournalTest.cpp - Summaries made while a worker parses ------===//

#include "run/SummaryJournal.h"
#include "gtest/gtest.h"
#include <sys/wait.h>
#include <unistd.h>

using namespace cuda_async_lint;

namespace {

llvm::json::Object unit(llvm::StringRef File) {
  return llvm::json::Object{{"file", File}, {"functions", llvm::json::Array{}}};
}

TEST(SummaryJournalTest, AWorkerReadsWhatWasAppendedSinceItWasForked) {
  std::unique_ptr<SummaryJournal> Journal = SummaryJournal::create();
  ASSERT_TRUE(Journal);
  // Known to the worker when it is forked: in its store already.
  Journal->append(0, unit("/p/before.cpp"));
  int Go[2], Answer[2];
  ASSERT_EQ(::pipe(Go), 0);
  ASSERT_EQ(::pipe(Answer), 0);
  pid_t Pid = ::fork();
  ASSERT_GE(Pid, 0);
  if (Pid == 0) {
    char Byte;
    if (::read(Go[0], &Byte, 1) != 1)
      ::_exit(2);
    std::shared_ptr<ProgramSummaries> Known = ProgramSummaries::empty(true);
    Journal->readNew(*Known);
    std::string Files;
    for (const std::string &F : Known->files())
      Files += F + ";";
    ::_exit(::write(Answer[1], Files.data(), Files.size()) ==
                    ssize_t(Files.size())
                ? 0
                : 3);
  }
  // Appended while the worker parses: it reads these, not what it knew.
  Journal->append(1, unit("/p/during-1.cpp"));
  Journal->append(2, unit("/p/during-2.cpp"));
  ASSERT_EQ(::write(Go[1], "g", 1), 1);
  int Status = 0;
  ASSERT_EQ(::waitpid(Pid, &Status, 0), Pid);
  ASSERT_TRUE(WIFEXITED(Status));
  EXPECT_EQ(WEXITSTATUS(Status), 0);
  char Buffer[256] = {};
  ssize_t N = ::read(Answer[0], Buffer, sizeof(Buffer) - 1);
  ASSERT_GT(N, 0);
  EXPECT_EQ(std::string(Buffer, N), "/p/during-1.cpp;/p/during-2.cpp;");
  for (int FD : {Go[0], Go[1], Answer[0], Answer[1]})
    ::close(FD);
}

TEST(SummaryJournalTest, AParkedProcessReadsEveryUnitWithItsIndex) {
  std::unique_ptr<SummaryJournal> Journal = SummaryJournal::create();
  ASSERT_TRUE(Journal);
  Journal->append(3, unit("/p/c.cpp"));
  Journal->append(1, unit("/p/a.cpp"));
  std::vector<std::pair<size_t, std::string>> Read;
  Journal->readAll([&](size_t Index, llvm::json::Object Unit) {
    Read.push_back({Index, Unit.getString("file")->str()});
  });
  std::vector<std::pair<size_t, std::string>> Expected = {{3, "/p/c.cpp"},
                                                          {1, "/p/a.cpp"}};
  EXPECT_EQ(Read, Expected);
  EXPECT_GT(Journal->size(), 0u);
}

} // namespace
