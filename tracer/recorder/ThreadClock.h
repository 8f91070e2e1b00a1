//===- ThreadClock.h - Thread ids and time in a handler ---------*- C++ -*-===//
//
// The calling thread's id and the monotonic clock, from system calls that
// are safe in a signal handler: the race detector reads both there.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_THREADCLOCK_H
#define CUDA_ASYNC_TRACE_RECORDER_THREADCLOCK_H

#include <cstdint>
#include <ctime>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

namespace cuda_async_trace {

/// The calling thread's id: gettid once per thread, then its copy (the
/// detector asks for it at every lock, on every traced copy). Initial-exec
/// TLS: a handler reads it without the lazy allocation a dlopen'd library's
/// TLS otherwise gets on first use. A forked child's thread gets a new id,
/// so the copy is cleared at fork (clearThreadIdAfterFork).
inline pid_t &cachedThreadId() {
  static thread_local pid_t Id __attribute__((tls_model("initial-exec"))) = 0;
  return Id;
}
inline pid_t threadId() {
  pid_t &Id = cachedThreadId();
  if (!Id)
    Id = static_cast<pid_t>(syscall(SYS_gettid));
  return Id;
}
inline void clearThreadIdAfterFork() { cachedThreadId() = 0; }

inline std::uint64_t monotonicNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return static_cast<std::uint64_t>(T.tv_sec) * 1000000000ull +
         static_cast<std::uint64_t>(T.tv_nsec);
}

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_THREADCLOCK_H
