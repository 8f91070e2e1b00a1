//===- Recorder.h - One traced process's record -----------------*- C++ -*-===//
//
// What the injection library keeps while the program runs, behind two calls
// a tracer makes per CUDA call (enter, exit) and one at the end (write).
// CPU tests drive it the same way through a stand-in runtime.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_RECORDER_H
#define CUDA_ASYNC_TRACE_RECORDER_RECORDER_H

#include "CallStacks.h"
#include "RawTraceWriter.h"
#include "SiteTable.h"

#include <atomic>
#include <string>

namespace cuda_async_trace {

class Recorder {
public:
  /// \p Tracer names what reports the calls ("CUPTI 130001").
  explicit Recorder(std::string Tracer) : Tracer(std::move(Tracer)) {}

  /// A call of \p Api starts: its site, from the calling stack (the
  /// caller's own \p Skip frames left out).
  std::uint32_t enter(const CatalogRow *Api, const char *Function,
                      unsigned Skip);
  SiteTable &sites() { return Sites; }

  /// Writes the raw trace to \p Pattern ("%p": the process id), once: a
  /// second call (a crash during exit) does nothing. \p Signal and \p Crash:
  /// the signal the program dies of, and where. Returns false with errno set
  /// if the file cannot be written.
  bool write(const std::string &Pattern, int Signal = 0, Stack Crash = {},
             std::vector<std::string> CrashSymbols = {});

private:
  std::string Tracer;
  SiteTable Sites;
  StackTable Stacks;
  std::atomic<bool> Written{false};
};

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_RECORDER_H
