//===- ParkedParses.cpp ---------------------------------------------------===//

#include "ParkedParses.h"
#include "WorkerProcesses.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <cerrno>
#include <fstream>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace cuda_async_lint {

namespace {

using Clock = std::chrono::steady_clock;

/// Each parked process holds a descriptor of the driver's; far fewer than
/// the usual limit of 1,024.
constexpr size_t MostParked = 256;

/// Ends \p C's process: killed if \p Kill, else left to exit on the
/// closed channel; reaped. True if it exited with status 0.
bool finish(ParkedParses::Channel &C, bool Kill) {
  if (Kill && C.Pid > 0)
    ::kill(C.Pid, SIGKILL);
  closeFd(C.Socket);
  int Status = 0;
  if (C.Pid <= 0)
    return false;
  while (::waitpid(C.Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(Status) && WEXITSTATUS(Status) == 0;
}

/// What \p Pid holds in memory now, in bytes (0 if unknown).
uint64_t residentBytes(pid_t Pid) {
  std::ifstream Statm("/proc/" + std::to_string(Pid) + "/statm");
  uint64_t Size = 0, Resident = 0;
  if (!(Statm >> Size >> Resident))
    return 0;
  return Resident * uint64_t(::sysconf(_SC_PAGESIZE));
}

/// Reads \p Fd until \p Until is in what was read or the end, waiting
/// \p Ms at most; what was read.
std::string readUntil(int Fd, char Until, int Ms) {
  std::string Out;
  Clock::time_point End = Clock::now() + std::chrono::milliseconds(Ms);
  while (Out.find(Until) == std::string::npos) {
    int Left = int(std::chrono::duration_cast<std::chrono::milliseconds>(
                       End - Clock::now())
                       .count());
    pollfd P{Fd, POLLIN, 0};
    if (Left <= 0 || ::poll(&P, 1, Left) <= 0)
      break;
    char C;
    ssize_t N = ::read(Fd, &C, 1);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Out.push_back(C);
  }
  return Out;
}

} // namespace

ParkedParses::ParkedParses(uint64_t Budget) : Budget(Budget) {
#ifdef __linux__
  // A parked process's parent, the worker, exits before it: this process
  // adopts it, to reap it.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
}

ParkedParses::~ParkedParses() {
  while (!Parked.empty())
    release(Parked.begin()->first);
}

uint64_t ParkedParses::defaultBudget() {
  uint64_t Memory =
      uint64_t(::sysconf(_SC_PHYS_PAGES)) * uint64_t(::sysconf(_SC_PAGESIZE));
  return std::min<uint64_t>(Memory / 4, uint64_t(2) << 30);
}

void ParkedParses::beforeFork(size_t Unit, bool Wanted) {
  Forking.reset();
  if (!Wanted || Stopped || Held >= Budget || Parked.size() >= MostParked)
    return;
  int Pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Pair) != 0)
    return;
  DriverEnd = Pair[0];
  ParkedEnd = Pair[1];
  Forking = Unit;
}

void ParkedParses::afterFork(size_t Unit) {
  if (Forking != Unit)
    return;
  closeFd(ParkedEnd);
  Parked[Unit].Socket = DriverEnd;
  DriverEnd = -1;
  Forking.reset();
}

void ParkedParses::inWorker() {
  for (auto &[Unit, C] : Parked)
    closeFd(C.Socket);
  Parked.clear();
  closeFd(DriverEnd);
}

bool ParkedParses::park(llvm::function_ref<void()> Rebuild) {
  if (ParkedEnd < 0)
    return false;
  pid_t Pid = ::fork();
  if (Pid != 0) {
    // The worker (or a fork that failed: nothing is parked) goes on.
    closeFd(ParkedEnd);
    return false;
  }
  detachFromWorker(ParkedEnd);
  std::string Hello = std::to_string(::getpid()) + "\n";
  if (::write(ParkedEnd, Hello.data(), Hello.size()) != ssize_t(Hello.size()))
    ::_exit(0);
  char Command = 0;
  ssize_t N;
  while ((N = ::read(ParkedEnd, &Command, 1)) < 0 && errno == EINTR) {
  }
  // The driver closed the channel (released, or gone): nothing to do.
  if (N != 1 || Command != 'c')
    ::_exit(0);
  Rebuild();
  return true;
}

void ParkedParses::workerEnded(size_t Unit, bool Failed) {
  auto It = Parked.find(Unit);
  if (It == Parked.end())
    return;
  Channel &C = It->second;
  // A worker that parked wrote the pid first; one that did not (its unit
  // did not parse) closed the channel.
  std::string Hello = readUntil(C.Socket, '\n', 10000);
  unsigned long long Pid = 0;
  if (!Hello.empty() && Hello.back() == '\n' &&
      !llvm::StringRef(Hello).drop_back().getAsInteger(10, Pid))
    C.Pid = pid_t(Pid);
  // Held counts only what is kept: a process let go here was never in it.
  uint64_t Resident = C.Pid > 0 ? residentBytes(C.Pid) : 0;
  if (Failed || C.Pid <= 0 || Held + Resident > Budget) {
    release(Unit);
    return;
  }
  C.Resident = Resident;
  Held += Resident;
}

uint64_t ParkedParses::residentNow() const {
  uint64_t Sum = 0;
  for (const auto &[Unit, C] : Parked)
    if (C.Pid > 0)
      Sum += residentBytes(C.Pid);
  return Sum;
}

void ParkedParses::release(size_t Unit) {
  auto It = Parked.find(Unit);
  if (It == Parked.end())
    return;
  Channel C = It->second;
  Parked.erase(It);
  finish(C, /*Kill=*/false);
  Held -= std::min(Held, C.Resident);
}

void ParkedParses::stop() {
  Stopped = true;
  while (!Parked.empty())
    release(Parked.begin()->first);
}

void ParkedParses::check(
    const std::vector<size_t> &Units, unsigned Parallel,
    std::chrono::seconds Timeout,
    llvm::function_ref<void(size_t, std::optional<std::string>)> Done) {
  struct Running {
    size_t Unit;
    Channel C;
    std::string Output;
    std::optional<Clock::time_point> Deadline;
  };
  std::vector<Running> Now;
  size_t Next = 0;
  auto End = [&](Running &R, bool Answered) {
    bool Exited = finish(R.C, /*Kill=*/!Answered);
    Held -= std::min(Held, R.C.Resident);
    Done(R.Unit, Answered && Exited
                     ? std::optional<std::string>(std::move(R.Output))
                     : std::nullopt);
  };
  while (Next < Units.size() || !Now.empty()) {
    while (Now.size() < std::max(1u, Parallel) && Next < Units.size()) {
      size_t Unit = Units[Next++];
      auto It = Parked.find(Unit);
      if (It == Parked.end()) {
        Done(Unit, std::nullopt);
        continue;
      }
      Running R{Unit, It->second, "", std::nullopt};
      Parked.erase(It);
      if (Timeout.count() > 0)
        R.Deadline = Clock::now() + Timeout;
      // MSG_NOSIGNAL: a parked process that died is a unit parsed again,
      // not a SIGPIPE here.
      if (::send(R.C.Socket, "c", 1, MSG_NOSIGNAL) != 1) {
        End(R, /*Answered=*/false);
        continue;
      }
      Now.push_back(std::move(R));
    }
    if (Now.empty())
      continue;
    std::vector<pollfd> Fds;
    int WaitMs = -1;
    for (Running &R : Now) {
      Fds.push_back({R.C.Socket, POLLIN, 0});
      if (R.Deadline) {
        auto Left = std::chrono::ceil<std::chrono::milliseconds>(*R.Deadline -
                                                                 Clock::now());
        int Ms = int(std::max<int64_t>(0, Left.count()));
        WaitMs = WaitMs < 0 ? Ms : std::min(WaitMs, Ms);
      }
    }
    if (::poll(Fds.data(), Fds.size(), WaitMs) < 0 && errno != EINTR)
      ::usleep(10000);
    for (size_t I = 0; I < Now.size();) {
      Running &R = Now[I];
      bool Ended = false, Answered = false;
      if (Fds[I].revents & (POLLIN | POLLHUP | POLLERR)) {
        char Buf[65536];
        ssize_t N = ::read(R.C.Socket, Buf, sizeof(Buf));
        if (N > 0)
          R.Output.append(Buf, size_t(N));
        else if (N == 0 || errno != EINTR)
          Ended = true, Answered = N == 0;
      }
      if (!Ended && R.Deadline && Clock::now() >= *R.Deadline)
        Ended = true;
      if (!Ended) {
        ++I;
        continue;
      }
      End(R, Answered);
      Now.erase(Now.begin() + I);
      Fds.erase(Fds.begin() + I);
    }
  }
}

} // namespace cuda_async_lint
