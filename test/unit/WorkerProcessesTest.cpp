//===- WorkerProcessesTest.cpp - One process per translation unit ---------===//

#include "run/WorkerProcesses.h"
#include "gtest/gtest.h"
#include <csignal>
#include <cstdio>
#include <map>
#include <unistd.h>

using namespace cuda_async_lint;
using Status = WorkerOutcome::Status;

namespace {

std::map<size_t, WorkerOutcome>
runAll(size_t Count, unsigned Parallel, std::chrono::seconds Timeout,
       llvm::function_ref<std::string(size_t)> Job) {
  std::map<size_t, WorkerOutcome> Outcomes;
  runInWorkerProcesses(Count, Parallel, Timeout, Job,
                       [&](size_t I, WorkerOutcome O) {
                         EXPECT_FALSE(Outcomes.count(I)) << "ended twice";
                         Outcomes[I] = std::move(O);
                       });
  return Outcomes;
}

TEST(WorkerProcessesTest, EveryJobEndsOnceWithItsOutput) {
  auto Outcomes = runAll(7, 3, std::chrono::seconds(0), [](size_t I) {
    // More than a pipe holds: the parent must read while the child writes.
    return std::string(200000 + I, char('a' + I));
  });
  ASSERT_EQ(Outcomes.size(), 7u);
  for (auto &[I, O] : Outcomes) {
    EXPECT_EQ(O.State, Status::Finished);
    EXPECT_EQ(O.Output, std::string(200000 + I, char('a' + I)));
  }
}

TEST(WorkerProcessesTest, ACrashIsThatJobsAlone) {
  auto Outcomes = runAll(3, 2, std::chrono::seconds(0), [](size_t I) {
    if (I == 1) {
      std::fputs("Stack dump:\n0. where it was\n", stderr);
      std::fflush(stderr);
      std::raise(SIGSEGV);
    }
    return std::string("ok");
  });
  EXPECT_EQ(Outcomes[0].State, Status::Finished);
  EXPECT_EQ(Outcomes[1].State, Status::Crashed);
  EXPECT_EQ(Outcomes[1].Signal, SIGSEGV);
  EXPECT_NE(Outcomes[1].Diagnostics.find("0. where it was"), std::string::npos);
  EXPECT_EQ(Outcomes[2].State, Status::Finished);
  EXPECT_EQ(Outcomes[2].Output, "ok");
}

TEST(WorkerProcessesTest, AHangIsKilledAtTheTimeLimit) {
  auto Outcomes = runAll(2, 2, std::chrono::seconds(1), [](size_t I) {
    if (I == 0)
      for (;;)
        ::pause();
    return std::string("ok");
  });
  EXPECT_EQ(Outcomes[0].State, Status::TimedOut);
  EXPECT_EQ(Outcomes[1].State, Status::Finished);
}

TEST(WorkerProcessesTest, AnEarlyExitIsNotAResult) {
  auto Outcomes = runAll(1, 1, std::chrono::seconds(0), [](size_t) {
    ::_exit(5);
    return std::string();
  });
  EXPECT_EQ(Outcomes[0].State, Status::ExitedEarly);
  EXPECT_EQ(Outcomes[0].ExitCode, 5);
}

TEST(WorkerProcessesTest, AWorkerWritesNothingToStdout) {
  // The report on stdout is the driver's: a worker's prints go nowhere.
  testing::internal::CaptureStdout();
  auto Outcomes = runAll(1, 1, std::chrono::seconds(0), [](size_t) {
    std::puts("stray");
    std::fflush(stdout);
    return std::string("ok");
  });
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(Outcomes[0].State, Status::Finished);
}

} // namespace
