//===- TraceBuilder.h - Raw traces into the trace ---------------*- C++ -*-===//
//
// Reads the raw traces a run left (one per traced process), finds each
// site's source line, merges the sites that share a line, and derives the
// runtime findings.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_MODEL_TRACEBUILDER_H
#define CUDA_ASYNC_TRACE_MODEL_TRACEBUILDER_H

#include "Trace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace cuda_async_trace {

struct FinishOptions {
  /// Where to look for the program's binaries, if not where they ran.
  std::vector<std::string> SymbolDirs;
};

struct FinishedTrace {
  Trace T;
  /// Things the user should know: modules that could not be read, sites
  /// without a line.
  std::vector<std::string> Warnings;
};

/// The trace of the raw traces at \p RawPaths. An error names the file
/// that is not a raw trace, and why.
llvm::Expected<FinishedTrace> finishTrace(llvm::ArrayRef<std::string> RawPaths,
                                          const FinishOptions &Options);

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_MODEL_TRACEBUILDER_H
