//===- SignalHandlers.h - The tracer's one signal dispatcher ----*- C++ -*-===//
//
// The signals the tracer takes, and whom each goes to:
//  - SIGSEGV and SIGTRAP go to the race detector first, when it runs: its
//    protection faults and single steps (RaceDetector.h);
//  - any other goes to the handler the program had installed before the
//    tracer (its own crash report, a runtime that recovers from SIGSEGV);
//  - where the program had none, it is a crash: free() or delete[] of
//    memory cudaMallocHost returned corrupts the heap and usually kills the
//    program inside the C library. The dispatcher records where (the stack,
//    and the nearest exported symbol of each frame, which names free() where
//    no symbol file would), writes what was traced so far, and lets the
//    program die of the same signal.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_SIGNALHANDLERS_H
#define CUDA_ASYNC_TRACE_RECORDER_SIGNALHANDLERS_H

#include "Recorder.h"

#include <csignal>
#include <string>

namespace cuda_async_trace {

/// Installs the dispatcher for SIGSEGV, SIGABRT, SIGBUS, SIGILL and SIGFPE,
/// and SIGTRAP where \p R detects races; a crash writes \p R to \p Pattern.
/// Both must outlive the program. Best effort: writing the trace in a
/// handler is not async-signal-safe (the race detector's part is).
void installSignalHandlers(Recorder *R, const std::string *Pattern);

/// The dispatcher, to check that SIGSEGV still goes to it.
void signalDispatcher(int Signal, siginfo_t *Info, void *Context);

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_SIGNALHANDLERS_H
