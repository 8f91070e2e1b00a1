//===- Fixes.h - --fix and --export-fixes -----------------------*- C++ -*-===//
//
// As clang-tidy: --fix applies every fix-it that does not overlap another
// and notes on each finding whether its fix was applied; --export-fixes
// writes the findings and their replacements as the YAML that
// clang-apply-replacements and review bots read.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_FIXES_H
#define CUDA_ASYNC_LINT_DRIVER_FIXES_H

#include "Report.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>

namespace cuda_async_lint {

struct FixSummary {
  unsigned Applied = 0;
  unsigned Total = 0;
};

/// The replacements to write, by file.
struct PlannedFixes {
  std::map<std::string, clang::tooling::Replacements> ByFile;
  /// contentHash() of each file as it was parsed.
  std::map<std::string, uint64_t> ParsedHash;
};

/// Decides which fix-its of \p R can be applied together (one that overlaps
/// an earlier one cannot) and adds clang-tidy's note to each finding with
/// fixes: "FIX-IT applied suggested code changes" or "FIX-IT unable to apply
/// suggested code changes".
PlannedFixes planFixes(Report &R, FixSummary &Summary);

/// The hash --fix compares to tell whether a file changed since it was
/// parsed.
uint64_t contentHash(llvm::StringRef Content);

/// Writes the planned replacements into the files. Every file is read first
/// and compared with its content as parsed: if any changed (an editor save,
/// a checkout during the run), nothing is written and the error names it.
/// Each file is then replaced atomically (a temporary file beside it,
/// renamed over it, with its permissions), so a failed write leaves it whole.
llvm::Error applyFixes(const PlannedFixes &Plan);

/// An error unless \p Path can be written in --export-fixes' YAML (is
/// valid UTF-8).
llvm::Error checkExportablePath(llvm::StringRef Path);

/// clang-apply-replacements YAML: \p MainSourceFile is the first input. An
/// error, and nothing written, if a path cannot be written in YAML.
llvm::Error writeExportedFixes(const Report &R, llvm::StringRef MainSourceFile,
                               llvm::raw_ostream &OS);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_FIXES_H
