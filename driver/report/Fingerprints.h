//===- Fingerprints.h - Identities that survive unrelated edits -*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_FINGERPRINTS_H
#define CUDA_ASYNC_LINT_DRIVER_FINGERPRINTS_H

#include "Report.h"
#include "llvm/ADT/StringMap.h"
#include <string>

namespace cuda_async_lint {

/// Gives each finding, in report order, a fingerprint that survives edits
/// elsewhere in the file: a hash of the check, the file (relative to the
/// source root), the reported line's text (whitespace removed) and the
/// message, then ':' and the occurrence of that hash within the file. Code
/// scanning (SARIF partialFingerprints) and --baseline match on it.
class Fingerprinter {
public:
  explicit Fingerprinter(std::string SourceRoot)
      : SourceRoot(std::move(SourceRoot)) {}

  /// Sets F.Fingerprint; findings must come in report order.
  void assign(ResolvedFinding &F);

private:
  std::string SourceRoot;
  llvm::StringMap<unsigned> Occurrences;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_FINGERPRINTS_H
