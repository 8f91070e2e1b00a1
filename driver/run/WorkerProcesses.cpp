//===- WorkerProcesses.cpp ------------------------------------------------===//

#include "WorkerProcesses.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace cuda_async_lint {

struct WorkerSet::Worker {
  size_t Index = 0;
  pid_t Pid = -1;
  int Out = -1; ///< The job's result.
  int Err = -1; ///< Its stderr.
  std::string Output, Diagnostics;
  std::optional<std::chrono::steady_clock::time_point> Deadline;
};

namespace {

using Worker = WorkerSet::Worker;

using Clock = std::chrono::steady_clock;

constexpr size_t DiagnosticsKept = 64 * 1024;

bool writeAll(int Fd, const std::string &Bytes) {
  size_t Done = 0;
  while (Done < Bytes.size()) {
    ssize_t N = ::write(Fd, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += size_t(N);
  }
  return true;
}

/// Reads what is there; closes \p Fd at end of file (or on an error).
void drain(int &Fd, std::string &Into, size_t Keep) {
  char Buf[65536];
  ssize_t N = ::read(Fd, Buf, sizeof(Buf));
  if (N < 0 && (errno == EINTR || errno == EAGAIN))
    return;
  if (N <= 0) {
    closeFd(Fd);
    return;
  }
  Into.append(Buf, size_t(N));
  if (Keep && Into.size() > 2 * Keep)
    Into.erase(0, Into.size() - Keep);
}

/// In a worker: where the job's result goes (detachFromWorker moves it).
int JobOutput = -1;

/// In the child: never returns.
[[noreturn]] void runChild(int Out, int Err,
                           llvm::function_ref<std::string()> Job) {
#ifdef __linux__
  // A worker outlives nothing: if the driver is killed, so is it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  ::dup2(Err, STDERR_FILENO);
  closeFd(Err);
  int Null = ::open("/dev/null", O_WRONLY);
  if (Null >= 0) {
    ::dup2(Null, STDOUT_FILENO);
    closeFd(Null);
  }
  JobOutput = Out;
  std::string Result = Job();
  // _exit: the parent's buffered output and atexit handlers are the
  // parent's, not this copy's.
  ::_exit(writeAll(JobOutput, Result) ? 0 : 70);
}

/// Forks the worker for \p Index; an empty string, or why it could not.
std::string start(size_t Index, std::vector<Worker> &Running,
                  std::chrono::seconds Timeout,
                  llvm::function_ref<std::string()> Job) {
  int Out[2], Err[2];
  if (::pipe2(Out, O_CLOEXEC) != 0)
    return std::string("cannot create a pipe: ") + std::strerror(errno);
  if (::pipe2(Err, O_CLOEXEC) != 0) {
    std::string Error =
        std::string("cannot create a pipe: ") + std::strerror(errno);
    ::close(Out[0]), ::close(Out[1]);
    return Error;
  }
  pid_t Pid = ::fork();
  if (Pid < 0) {
    std::string Error =
        std::string("cannot start a worker process: ") + std::strerror(errno);
    for (int Fd : {Out[0], Out[1], Err[0], Err[1]})
      ::close(Fd);
    return Error;
  }
  if (Pid == 0) {
    ::close(Out[0]), ::close(Err[0]);
    for (Worker &W : Running)
      closeFd(W.Out), closeFd(W.Err);
    runChild(Out[1], Err[1], Job);
  }
  ::close(Out[1]), ::close(Err[1]);
  Worker W;
  W.Index = Index;
  W.Pid = Pid;
  W.Out = Out[0];
  W.Err = Err[0];
  if (Timeout.count() > 0)
    W.Deadline = Clock::now() + Timeout;
  Running.push_back(std::move(W));
  return "";
}

/// Reaps \p W, which closed both pipes (or was killed).
WorkerOutcome reap(Worker &W, bool Killed) {
  int Status = 0;
  while (::waitpid(W.Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  closeFd(W.Out), closeFd(W.Err);
  WorkerOutcome O;
  O.Output = std::move(W.Output);
  O.Diagnostics = std::move(W.Diagnostics);
  if (Killed) {
    O.State = WorkerOutcome::Status::TimedOut;
  } else if (WIFSIGNALED(Status)) {
    O.State = WorkerOutcome::Status::Crashed;
    O.Signal = WTERMSIG(Status);
  } else if (WIFEXITED(Status) && WEXITSTATUS(Status) == 0) {
    O.State = WorkerOutcome::Status::Finished;
  } else {
    O.State = WorkerOutcome::Status::ExitedEarly;
    O.ExitCode = WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
  }
  return O;
}

} // namespace

void closeFd(int &Fd) {
  if (Fd >= 0)
    ::close(Fd);
  Fd = -1;
}

void detachFromWorker(int Output) {
  // The driver sees the worker end when both its pipes close: this process
  // keeps neither.
  closeFd(JobOutput);
  JobOutput = Output;
  int Null = ::open("/dev/null", O_WRONLY);
  if (Null >= 0) {
    ::dup2(Null, STDERR_FILENO);
    closeFd(Null);
  }
}

WorkerSet::WorkerSet() = default;

WorkerSet::~WorkerSet() {
  for (Worker &W : Running) {
    ::kill(W.Pid, SIGKILL);
    reap(W, /*Killed=*/true);
  }
}

size_t WorkerSet::size() const { return Running.size(); }

std::string WorkerSet::start(size_t Id, llvm::function_ref<std::string()> Job,
                             std::chrono::seconds Timeout) {
  return cuda_async_lint::start(Id, Running, Timeout, Job);
}

bool WorkerSet::running(size_t Id) const {
  return llvm::any_of(Running, [&](const Worker &W) { return W.Index == Id; });
}

void WorkerSet::cancel(size_t Id) {
  for (size_t I = 0; I < Running.size(); ++I)
    if (Running[I].Index == Id) {
      ::kill(Running[I].Pid, SIGKILL);
      reap(Running[I], /*Killed=*/true);
      Running.erase(Running.begin() + I);
      return;
    }
}

int WorkerSet::prepare(std::vector<pollfd> &Fds) const {
  int WaitMs = -1;
  Clock::time_point Now = Clock::now();
  for (const Worker &W : Running) {
    for (int Fd : {W.Out, W.Err})
      if (Fd >= 0)
        Fds.push_back({Fd, POLLIN, 0});
    if (W.Deadline) {
      auto Left =
          std::chrono::ceil<std::chrono::milliseconds>(*W.Deadline - Now);
      int Ms = int(std::max<int64_t>(0, Left.count()));
      WaitMs = WaitMs < 0 ? Ms : std::min(WaitMs, Ms);
    }
  }
  return WaitMs;
}

void WorkerSet::serve(const std::vector<pollfd> &Fds,
                      llvm::function_ref<void(size_t, WorkerOutcome)> Done) {
  for (const pollfd &P : Fds) {
    if (!(P.revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
      continue;
    for (Worker &W : Running) {
      if (P.fd == W.Out)
        drain(W.Out, W.Output, 0);
      else if (P.fd == W.Err)
        drain(W.Err, W.Diagnostics, DiagnosticsKept);
    }
  }
  Clock::time_point Now = Clock::now();
  for (size_t I = 0; I < Running.size();) {
    Worker &W = Running[I];
    bool Ended = W.Out < 0 && W.Err < 0;
    bool Late = !Ended && W.Deadline && Now >= *W.Deadline;
    if (!Ended && !Late) {
      ++I;
      continue;
    }
    if (Late)
      ::kill(W.Pid, SIGKILL);
    size_t Index = W.Index;
    WorkerOutcome O = reap(W, Late);
    Running.erase(Running.begin() + I);
    Done(Index, std::move(O));
  }
}

void runInWorkerProcesses(size_t Count, unsigned Parallel,
                          std::chrono::seconds Timeout,
                          llvm::function_ref<std::string(size_t)> Job,
                          llvm::function_ref<void(size_t, WorkerOutcome)> Done,
                          llvm::function_ref<void(size_t)> BeforeFork,
                          llvm::function_ref<void(size_t)> AfterFork) {
  if (Parallel == 0)
    Parallel = 1;
  WorkerSet Workers;
  size_t Next = 0;
  while (Next < Count || Workers.size()) {
    while (Workers.size() < Parallel && Next < Count) {
      size_t Index = Next++;
      if (BeforeFork)
        BeforeFork(Index);
      std::string Error =
          Workers.start(Index, [&] { return Job(Index); }, Timeout);
      if (AfterFork)
        AfterFork(Index);
      if (!Error.empty()) {
        WorkerOutcome NotStarted;
        NotStarted.Error = std::move(Error);
        Done(Index, std::move(NotStarted));
      }
    }
    if (!Workers.size())
      continue;
    std::vector<pollfd> Fds;
    int WaitMs = Workers.prepare(Fds);
    if (::poll(Fds.data(), Fds.size(), WaitMs) < 0 && errno != EINTR)
      ::usleep(10000); // Should not happen; do not spin.
    Workers.serve(Fds, Done);
  }
}

} // namespace cuda_async_lint
