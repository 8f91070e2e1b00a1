//===- ExitCodes.h - What cuda-async-lint's exit status means ---*- C++ -*-===//
//
// Documented in docs/usage.md; CI pipelines gate on them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CLI_EXITCODES_H
#define CUDA_ASYNC_LINT_DRIVER_CLI_EXITCODES_H

namespace cuda_async_lint {

enum ExitCode : int {
  /// Every file analysed, no findings.
  ExitClean = 0,
  /// Every file analysed, at least one finding.
  ExitFindings = 1,
  /// Bad usage or input: unknown option or check, missing or unreadable
  /// file, malformed compilation database. Nothing was analysed.
  ExitUsageError = 2,
  /// At least one translation unit failed to parse; the others were analysed
  /// and their findings reported. Takes precedence over ExitFindings.
  ExitParseError = 3,
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CLI_EXITCODES_H
