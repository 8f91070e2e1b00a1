//===- ReportSelection.h - Which findings a run reports ---------*- C++ -*-===//
//
// Every finding gets its fingerprint in report order; then --line-filter or
// --diff keep those on chosen lines, and --baseline drops those an earlier
// report accepted. Fingerprints come first, so they never depend on what is
// left out.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_REPORTSELECTION_H
#define CUDA_ASYNC_LINT_DRIVER_REPORTSELECTION_H

#include "Baseline.h"
#include "FileResult.h"
#include "Fingerprints.h"
#include "LineFilter.h"
#include <optional>

namespace cuda_async_lint {

class ReportSelection {
public:
  /// From the options: --line-filter's JSON or --diff's git ref (at most
  /// one), --baseline's report; empty strings for options not given. The
  /// error names the option.
  static llvm::Expected<ReportSelection>
  fromOptions(std::string SourceRoot, llvm::StringRef LineFilterJson,
              llvm::StringRef DiffRef, llvm::StringRef BaselinePath,
              llvm::StringRef WorkingDirectory);

  ReportSelection(std::string SourceRoot, LineFilter Lines,
                  std::optional<Baseline> Accepted)
      : Prints(std::move(SourceRoot), Accepted.has_value()),
        Lines(std::move(Lines)), Accepted(std::move(Accepted)) {}

  /// Fingerprints \p R's findings (and lets their line text go, which
  /// only the fingerprints read) and drops those not reported.
  void apply(FileResult &R);

  /// Findings the baseline held, so far.
  size_t baselined() const { return Baselined; }
  /// Those findings, in the order they were left out.
  std::vector<ResolvedFinding> takeBaselined() { return std::move(Held); }
  bool hasBaseline() const { return Accepted.has_value(); }

private:
  Fingerprinter Prints;
  LineFilter Lines;
  std::optional<Baseline> Accepted;
  size_t Baselined = 0;
  std::vector<ResolvedFinding> Held;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_REPORTSELECTION_H
