//===- Fingerprints.h - Identities that survive unrelated edits -*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_FINGERPRINTS_H
#define CUDA_ASYNC_LINT_DRIVER_FINGERPRINTS_H

#include "Report.h"
#include "llvm/ADT/StringMap.h"
#include <string>

namespace cuda_async_lint {

/// Gives each finding, in report order, a fingerprint that survives edits
/// that are not the finding's own: lines added or removed anywhere, other
/// functions changed, other text on its line. A hash of the check, the file
/// (relative to the source root), the code the finding points at (from its
/// column, whitespace removed) and the message without the line numbers it
/// names, then ':' and the occurrence of that hash within the file. Code
/// scanning (SARIF partialFingerprints, "cudaAsyncLintFingerprint/v2") and
/// --baseline match on it; --baseline also accepts the fingerprints of
/// version 1 (the whole line and the message as written), so that
/// baselines written before stay good.
class Fingerprinter {
public:
  /// \p WithVersion1: also set FingerprintV1, which only a baseline reads.
  Fingerprinter(std::string SourceRoot, bool WithVersion1)
      : SourceRoot(std::move(SourceRoot)), WithVersion1(WithVersion1) {}

  /// Sets F.Fingerprint; findings must come in report order.
  void assign(ResolvedFinding &F);

private:
  std::string SourceRoot;
  bool WithVersion1;
  llvm::StringMap<unsigned> Occurrences, OccurrencesV1;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_FINGERPRINTS_H
