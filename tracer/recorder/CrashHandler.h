//===- CrashHandler.h - A crash is evidence too -----------------*- C++ -*-===//
//
// free() or delete[] of memory cudaMallocHost returned corrupts the heap and
// usually kills the program inside the C library. The handler records where
// (the stack, and the nearest exported symbol of each frame, which names
// free() where no symbol file would), writes what was traced so far, and
// lets the program die of the same signal.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_CRASHHANDLER_H
#define CUDA_ASYNC_TRACE_RECORDER_CRASHHANDLER_H

#include "Recorder.h"

#include <string>

namespace cuda_async_trace {

/// Installs handlers for SIGSEGV, SIGABRT, SIGBUS, SIGILL and SIGFPE that
/// write \p R to \p Pattern. Both must outlive the program. Best effort:
/// nothing in them is async-signal-safe, and a program that installs its own
/// handlers later replaces them.
void installCrashHandlers(Recorder *R, const std::string *Pattern);

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_CRASHHANDLER_H
