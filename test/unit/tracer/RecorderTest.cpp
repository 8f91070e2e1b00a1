//===- RecorderTest.cpp - One traced process's record ---------------------===//

#include "Recorder.h"

#include "gtest/gtest.h"
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace cuda_async_trace;

namespace {

TEST(RecorderTest, ACrashElsewhereWaitsForTheTraceBeingWritten) {
  // The program exits on one thread (its exit handler writes the trace)
  // while another crashes: the crash must not end the process mid-write.
  // The write is held up by a FIFO where its temporary file goes.
  char Dir[] = "/tmp/recorder-test.XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  std::string Path = std::string(Dir) + "/trace.json";
  std::string Temporary = Path + ".tmp." + std::to_string(getpid());
  ASSERT_EQ(mkfifo(Temporary.c_str(), 0600), 0);

  Recorder R("test");
  // Before any write, nothing to wait for.
  auto Start = std::chrono::steady_clock::now();
  R.waitForWrite(5000);
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(1));

  std::thread Writer([&] { R.write(Path); });
  // The writer is blocked opening the FIFO.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::atomic<bool> Waited{false};
  std::thread Crashing([&] {
    R.waitForWrite(5000);
    Waited = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(Waited);
  int Fd = open(Temporary.c_str(), O_RDONLY);
  ASSERT_GE(Fd, 0);
  char Buffer[4096];
  while (read(Fd, Buffer, sizeof(Buffer)) > 0)
    ;
  close(Fd);
  Writer.join();
  Crashing.join();
  EXPECT_TRUE(Waited);
  unlink(Path.c_str());
  unlink(Temporary.c_str());
  rmdir(Dir);
}

} // namespace
