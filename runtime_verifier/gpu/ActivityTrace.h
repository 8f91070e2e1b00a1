//===- ActivityTrace.h - CUPTI activity records of one run ------*- C++ -*-===//
//
// Records when each copy and kernel really ran on the GPU, and the host
// memory kind of each copy, through CUPTI's activity API. Without CUPTI (not
// built in, or refused by the driver) the verifier still times every variant
// and says why it has no trace.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_GPU_ACTIVITYTRACE_H
#define CUDA_ASYNC_VERIFY_GPU_ACTIVITYTRACE_H

#include "Timeline.h"

#include <cstdint>
#include <string>

namespace cuda_async_verify {

class ActivityTrace {
public:
  /// Registers CUPTI's buffer callbacks; call once, after the CUDA context
  /// exists.
  void initialize();
  bool available() const { return Available; }
  /// The CUPTI version, or why there is no trace.
  const std::string &status() const { return Status; }

  /// Starts recording copies and kernels.
  void begin();
  /// Marks the start of the run to keep: end() drops what ran before. The
  /// first launches after begin() (and after a flush) are slowed by CUPTI's
  /// own work, so a traced run follows an untraced-in-effect one, with no
  /// flush between them.
  void mark();
  /// Stops recording (the caller has synchronized) and returns what ran
  /// since mark(), in milliseconds from its first record, streams numbered
  /// by first use.
  Timeline end();

private:
  bool Available = false;
  std::uint64_t Since = 0;
  std::string Status = "not initialized";
};

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_GPU_ACTIVITYTRACE_H
