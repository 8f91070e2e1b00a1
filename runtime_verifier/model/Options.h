//===- Options.h - cuda-async-verify's command line -------------*- C++ -*-===//
//
// Parsed without touching the GPU, so bad flags are reported (exit code 2)
// on any machine, and the parser is unit-tested in CI.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_OPTIONS_H
#define CUDA_ASYNC_VERIFY_MODEL_OPTIONS_H

#include "Results.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuda_async_verify {

/// Exit codes, documented in docs/runtime-verifier.md.
enum ExitCode : int {
  /// Every verdict passed.
  ExitPassed = 0,
  /// At least one verdict failed.
  ExitVerdictFailed = 1,
  /// Bad command line; nothing ran.
  ExitUsageError = 2,
  /// No usable GPU, or a CUDA call failed.
  ExitCudaError = 3,
  /// No verdict failed, but at least one could not be decided on this
  /// machine.
  ExitInconclusive = 4,
};

/// The checks that have a buggy/fixed pair, in the order they run.
const std::vector<std::string> &verifiedChecks();

struct Options {
  std::uint64_t BatchBytes = 32ull << 20;
  unsigned Batches = 8;
  unsigned Streams = 4;
  /// Unset: calibrated so the kernel takes as long as one batch's H2D copy.
  std::optional<unsigned> Intensity;
  unsigned Warmup = 2;
  unsigned Repeats = 20;
  int Device = 0;
  std::vector<std::string> Checks = verifiedChecks();
  bool Reproductions = true;
  bool Trace = true;
  Criteria Bar;
  /// Run only the buggy or only the fixed variants (to trace each alone
  /// with cuda-async-trace); unset: both.
  std::optional<Role> OnlyRole;
  std::string JsonPath;
  std::string TimelinePath;

  bool Help = false;
  bool Version = false;
  bool ListChecks = false;
  /// Internal: run one release case in this (child) process.
  std::string ChildRelease;
};

struct ParseResult {
  Options Parsed;
  /// Empty on success; otherwise what is wrong, naming the flag.
  std::string Error;
};

ParseResult parseOptions(const std::vector<std::string> &Args);

const char *usageText();

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_OPTIONS_H
