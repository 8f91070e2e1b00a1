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

inline pid_t threadId() { return static_cast<pid_t>(syscall(SYS_gettid)); }

inline std::uint64_t monotonicNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return static_cast<std::uint64_t>(T.tv_sec) * 1000000000ull +
         static_cast<std::uint64_t>(T.tv_nsec);
}

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_THREADCLOCK_H
