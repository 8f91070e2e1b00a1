//===- ParkedParses.h - Parses kept until the program is whole --*- C++ -*-===//
//
// A whole-program run checks each unit against the summaries known while
// its worker runs; where the whole program then answers one of its
// questions otherwise, the unit is checked again (WholeProgram.h), which
// costs a second parse unless the first is kept. So a worker, once its
// unit is parsed and summarized, forks a process that holds the parse and
// waits (parked), and goes on to check. At resolution the driver tells a
// parked process whose unit must be checked again to do so, against the
// whole program, which it reads from the run's summary journal, and the
// others to exit. A parked process holds its unit's AST: the driver keeps
// the parked processes' resident memory within a budget, releasing those
// that would pass it; a unit whose parse is not kept is parsed again.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_PARKEDPARSES_H
#define CUDA_ASYNC_LINT_DRIVER_PARKEDPARSES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace cuda_async_lint {

class ParkedParses {
public:
  /// Parked processes hold at most \p Budget bytes of resident memory.
  explicit ParkedParses(uint64_t Budget);
  ParkedParses(const ParkedParses &) = delete;
  ParkedParses &operator=(const ParkedParses &) = delete;
  /// Lets every parked process go.
  ~ParkedParses();

  /// By default, a parse shorter than this is not kept (the worker does not
  /// park it): parking costs a few milliseconds whether or not the unit is
  /// checked again (docs/design.md, "Parked parses").
  static constexpr std::chrono::milliseconds ShortestKept{100};

  /// The default budget: a quarter of the machine's memory, 2 GiB at most.
  static uint64_t defaultBudget();

  /// In the driver, around the fork of unit \p Unit's worker: the channel
  /// its parked process will answer on, if \p Wanted and there is room.
  void beforeFork(size_t Unit, bool Wanted);
  void afterFork(size_t Unit);

  /// In a worker, first: lets go of the driver's ends of every channel, so
  /// that each parked process sees its channel close when the driver
  /// closes it.
  void inWorker();
  /// In a worker, after its parse: parks a process holding it, if the
  /// driver made a channel for this unit. Returns false in the worker.
  /// In the parked process it returns true once told to check, after
  /// \p Rebuild installed the whole program, and the worker's result goes
  /// to the driver through the channel; told to exit, it exits.
  bool park(llvm::function_ref<void()> Rebuild);

  /// In the driver, once unit \p Unit's worker ended (\p Failed: without a
  /// result): keeps its parked process, or lets it go if the unit failed or
  /// the budget is spent.
  void workerEnded(size_t Unit, bool Failed);
  bool holds(size_t Unit) const { return Parked.count(Unit); }
  /// Lets unit \p Unit's parked process go.
  void release(size_t Unit);
  /// Lets every parked process go, and parks no more: checking in a parked
  /// process would cost more than a parse.
  void stop();

  /// Has the parked processes of \p Units check, \p Parallel at a time,
  /// each killed past \p Timeout (zero: no limit). \p Done(Unit, Output)
  /// gets what the worker would have returned, or nothing if the process
  /// did not answer (the unit is then parsed again).
  void check(const std::vector<size_t> &Units, unsigned Parallel,
             std::chrono::seconds Timeout,
             llvm::function_ref<void(size_t, std::optional<std::string>)> Done);

  /// The resident bytes the parked processes held when they parked.
  uint64_t held() const { return Held; }
  /// How many parked processes there are, and what they hold now, read
  /// again from each one (a check of the budget's accounting).
  size_t kept() const { return Parked.size(); }
  uint64_t residentNow() const;
  uint64_t budget() const { return Budget; }

  struct Channel {
    /// A socket: the driver sends 'c' (check) or closes it (exit); the
    /// parked process sends its pid, then its result.
    int Socket = -1;
    pid_t Pid = -1;
    uint64_t Resident = 0;
  };

private:
  uint64_t Budget, Held = 0;
  bool Stopped = false;
  std::map<size_t, Channel> Parked;
  /// The channel being made for the worker being forked: the driver's end
  /// and the parked process's.
  std::optional<size_t> Forking;
  int DriverEnd = -1, ParkedEnd = -1;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_PARKEDPARSES_H
