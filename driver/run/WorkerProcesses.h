//===- WorkerProcesses.h - One process per translation unit -----*- C++ -*-===//
//
// clang itself can crash or hang on some inputs. Each translation unit is
// analysed in its own forked process, so that one bad file becomes an error
// for that file while the run goes on, and a time limit can stop it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_WORKERPROCESSES_H
#define CUDA_ASYNC_LINT_DRIVER_WORKERPROCESSES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

struct pollfd;

namespace cuda_async_lint {

/// How one worker ended.
struct WorkerOutcome {
  enum class Status {
    Finished,    ///< Exited 0: Output is everything the job returned.
    TimedOut,    ///< Ran past the time limit and was killed.
    Crashed,     ///< Killed by Signal.
    ExitedEarly, ///< Exited with ExitCode before its result was written.
    NotStarted,  ///< fork() or pipe() failed: Error says why.
  };
  Status State = Status::NotStarted;
  std::string Output;
  /// What the worker wrote to stderr (a crash's stack dump), its last 64 KiB.
  std::string Diagnostics;
  int Signal = 0;
  int ExitCode = 0;
  std::string Error;
};

/// Workers started one by one, for a loop that polls other descriptors too
/// (the language server's): it adds the workers' pipes to its poll() and
/// lets the set serve them. Single-threaded, as fork() requires.
class WorkerSet {
public:
  WorkerSet();
  WorkerSet(const WorkerSet &) = delete;
  WorkerSet &operator=(const WorkerSet &) = delete;
  /// Kills and reaps every worker still running.
  ~WorkerSet();

  /// Forks a worker that runs \p Job and returns its result, killed if it
  /// runs longer than \p Timeout (zero: no limit); \p Id names it in
  /// serve()'s outcomes. An error string if it could not start.
  std::string start(size_t Id, llvm::function_ref<std::string()> Job,
                    std::chrono::seconds Timeout);
  /// Kills the worker \p Id, if running: no outcome is delivered for it.
  void cancel(size_t Id);
  bool running(size_t Id) const;
  size_t size() const;

  /// Appends the descriptors to poll for; returns the milliseconds until
  /// the earliest deadline (-1: none).
  int prepare(std::vector<pollfd> &Fds) const;
  /// After poll(): reads what the workers wrote, and hands \p Done the
  /// outcome of each that ended or ran late.
  void serve(const std::vector<pollfd> &Fds,
             llvm::function_ref<void(size_t, WorkerOutcome)> Done);

  /// A running worker (WorkerProcesses.cpp).
  struct Worker;

private:
  std::vector<Worker> Running;
};

/// Runs \p Job(I) for each I in [0, \p Count) in a process forked from this
/// one, at most \p Parallel at a time, and kills any that runs longer than
/// \p Timeout (zero: no limit). \p Done(I, Outcome) runs in this process as
/// each worker ends, in the order they end. This process must have no other
/// threads (fork() copies only the calling one). A worker's stdout is
/// /dev/null: the report is this process's to write.
/// \p BeforeFork(I) and \p AfterFork(I), if given, run in this process
/// around the fork of worker I.
void runInWorkerProcesses(size_t Count, unsigned Parallel,
                          std::chrono::seconds Timeout,
                          llvm::function_ref<std::string(size_t)> Job,
                          llvm::function_ref<void(size_t, WorkerOutcome)> Done,
                          llvm::function_ref<void(size_t)> BeforeFork = nullptr,
                          llvm::function_ref<void(size_t)> AfterFork = nullptr);

/// Closes \p Fd if open, and marks it closed (-1).
void closeFd(int &Fd);

/// In a process a worker forked: lets go of the worker's pipes (its
/// stderr becomes /dev/null), so that the driver sees the worker end when
/// it exits, and sends the job's result to \p Output instead, should this
/// process return from the job.
void detachFromWorker(int Output);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_WORKERPROCESSES_H
