//===- Fixes.h - --fix and --export-fixes -----------------------*- C++ -*-===//
//
// As clang-tidy: --fix applies every fix-it that does not overlap another
// and notes on each finding whether its fix was applied (once the files are
// written, so that the note is true); --export-fixes
// writes the findings and their replacements as the YAML that
// clang-apply-replacements and review bots read.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_FIXES_H
#define CUDA_ASYNC_LINT_DRIVER_FIXES_H

#include "Report.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <set>
#include <string>
#include <vector>

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
  /// Per finding, per fix-it: whether it joined the plan (one that overlaps
  /// an earlier one cannot).
  std::vector<std::vector<bool>> Joined;
};

/// Decides which fix-its of \p R can be applied together.
PlannedFixes planFixes(const Report &R);

/// The hash --fix compares to tell whether a file changed since it was
/// parsed.
uint64_t contentHash(llvm::StringRef Content);

/// A file to fix: its content as analysed, and with the fixes.
struct FixedFile {
  std::string Original;
  std::string Fixed;
};

/// Reads every file of \p Plan, compares it with its content as parsed and
/// applies the replacements in memory. If any file changed (an editor save,
/// a checkout during the run) or cannot be read, the error names it and
/// nothing is to be written.
llvm::Expected<std::map<std::string, FixedFile>>
prepareFixes(const PlannedFixes &Plan);

/// Writes each file atomically (a temporary file beside it, renamed over it,
/// with its permissions, so a failed write leaves it whole), and adds it to
/// \p Written. Stops at the first file that cannot be written; the error
/// says how many were.
llvm::Error writeFixedFiles(const std::map<std::string, FixedFile> &Files,
                            std::set<std::string> &Written);

/// Adds clang-tidy's note to each fix-it of \p R, once the files are
/// written: "FIX-IT applied suggested code changes" only for a fix that
/// joined the plan and whose file was written, else "FIX-IT unable to apply
/// suggested code changes". A report never claims a fix it did not write.
FixSummary noteFixes(Report &R, const PlannedFixes &Plan,
                     const std::set<std::string> &Written);

/// The sources as the findings were made on: the disk, with each file of
/// \p Written as it was before its fixes. The report quotes these.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
sourcesAsAnalysed(const std::map<std::string, FixedFile> &Files,
                  const std::set<std::string> &Written);

/// An error unless \p Path can be written in --export-fixes' YAML (is
/// valid UTF-8).
llvm::Error checkExportablePath(llvm::StringRef Path);

/// clang-apply-replacements YAML: \p MainSourceFile is the first input. An
/// error, and nothing written, if a path cannot be written in YAML.
llvm::Error writeExportedFixes(const Report &R, llvm::StringRef MainSourceFile,
                               llvm::raw_ostream &OS);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_FIXES_H
