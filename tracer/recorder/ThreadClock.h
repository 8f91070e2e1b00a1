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

/// The calling thread's id, by a system call: safe in a signal handler.
inline pid_t threadId() { return static_cast<pid_t>(syscall(SYS_gettid)); }

/// The same, asked once per thread (the detector's lock asks at every
/// traced copy). Not in a signal handler: the TLS of a dlopen'd library is
/// allocated on a thread's first use, which may call malloc. A forked
/// child's thread gets a new id, so the copy is cleared at fork.
inline pid_t &threadIdCopy() {
  static thread_local pid_t Id = 0;
  return Id;
}
inline pid_t cachedThreadId() {
  pid_t &Id = threadIdCopy();
  if (!Id)
    Id = threadId();
  return Id;
}
inline void clearThreadIdAfterFork() { threadIdCopy() = 0; }

inline std::uint64_t monotonicNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return static_cast<std::uint64_t>(T.tv_sec) * 1000000000ull +
         static_cast<std::uint64_t>(T.tv_nsec);
}

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_THREADCLOCK_H
