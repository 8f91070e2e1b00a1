//===- Report.h - Findings resolved to files, lines and columns -*- C++ -*-===//
//
// What the driver keeps of a translation unit once its AST is gone: findings
// with file locations (and their clang-tidy text, rendered while the source
// manager was alive), and the files that failed to parse.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_REPORT_H
#define CUDA_ASYNC_LINT_DRIVER_REPORT_H

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace cuda_async_lint {

struct FileLocation {
  std::string File; ///< Absolute path.
  unsigned Line = 0;
  unsigned Column = 0; ///< 1-based, in bytes.
  unsigned Offset = 0; ///< 0-based byte offset in the file.
};

struct ResolvedNote {
  FileLocation Loc;
  std::string Message;
};

struct ResolvedFix {
  FileLocation Begin, End; ///< The replaced characters: [Begin, End).
  std::string Replacement;
  /// A hash of the whole file as it was parsed: --fix applies nothing to a
  /// file whose content changed since.
  uint64_t ParsedContentHash = 0;
};

/// One line of clang-tidy's text output before it is printed: the warning,
/// a note, or a note clang's renderer adds ("expanded from macro 'X'"),
/// each at a file offset, so it can be printed once the AST is gone.
struct RenderedMessage {
  bool IsNote = false;
  std::string File; ///< Empty for a message without a location.
  unsigned Offset = 0;
  std::string Message;
  /// Highlighted ranges: (offset, length) in File.
  std::vector<std::pair<unsigned, unsigned>> Ranges;
  /// Fix-its shown under the snippet: (offset, length, replacement).
  std::vector<std::tuple<unsigned, unsigned, std::string>> Fixes;
};

/// What a runtime trace (cuda-async-trace) says of a finding: --runtime-trace.
struct RuntimeEvidence {
  enum class Status {
    /// The run showed the bug at the finding's line (a runtime finding of
    /// the same check there).
    Confirmed,
    /// The line ran, but the run did not show the bug there.
    Exercised,
    /// The trace never saw the line run.
    NotExercised,
    /// Found by the trace alone: no static finding of the check at the line
    /// (memory whose provenance the analysis could not see, say).
    FoundAtRunTime,
  };
  Status State = Status::NotExercised;
  /// What the run measured, in words: "this copy ran 4 times: ...".
  std::string Summary;
  /// The trace file, as given.
  std::string Trace;
  /// Where the trace saw the call (a line of the finding, or of its notes).
  FileLocation Site;
  uint64_t Calls = 0;
  uint64_t Bytes = 0;
  uint64_t HostNs = 0;
};

/// "confirmed", "exercised", "not-exercised", "found-at-run-time".
const char *runtimeStatusName(RuntimeEvidence::Status S);

struct ResolvedFinding {
  std::string CheckId;
  FileLocation Loc;
  std::string Message;
  std::vector<ResolvedNote> Notes;
  std::vector<ResolvedFix> Fixes;
  /// The finding as clang-tidy renders it: the warning first.
  std::vector<RenderedMessage> Messages;
  /// What the fingerprints (Fingerprints.h) read of the reported line,
  /// kept by the process that had the line (LineText.h): the code the
  /// finding points at, from its column, without whitespace; and the whole
  /// line for version 1, empty on a line longer than MaxLineText.
  std::string PointedCode;
  std::string LineText;
  /// The directory of the compile command (clang-apply-replacements YAML).
  std::string BuildDirectory;
  /// An error, not a warning: a check WarningsAsErrors names, or clang-tidy's
  /// complaint about an unmatched NOLINTBEGIN/NOLINTEND (clang-tidy-nolint).
  bool IsError = false;
  /// Whether the finding fails the gate (exit status 1): every finding
  /// does, unless the file's configuration sets WarningsAsErrors, which then
  /// decides; errors always do.
  bool FailsGate = true;
  /// Set in the driver's process once the finding's place in the report is
  /// known (Fingerprints.h); not sent by workers.
  std::string Fingerprint;
  /// The fingerprint as version 1 made it, for baselines written then.
  std::string FingerprintV1;
  /// Set in the driver's process by --runtime-trace (RuntimeTraceJoin.h);
  /// not sent by workers.
  std::optional<RuntimeEvidence> Runtime;
};

/// A file that could not be analysed: clang's first errors, rendered. Or a
/// file analysed although clang rejects some of it (Report::ToleratedErrors).
struct FailedFile {
  std::string File;
  std::string Errors;
  /// Why, in a few words, for the "cannot analyse" line.
  std::string Reason = "it does not parse";
  /// For a file analysed although clang rejects some of it: clang's name
  /// of each diagnostic tolerated, once per occurrence.
  std::vector<std::string> Diagnostics = {};
};

struct Report {
  unsigned FilesAnalysed = 0;
  /// In the order of the files analysed; each file's in clang-tidy's order.
  std::vector<ResolvedFinding> Findings;
  std::vector<FailedFile> Failures;
  /// Files --exclude or the configuration left out (absolute).
  std::vector<std::string> Excluded;
  /// Findings NOLINT comments suppressed, and findings --baseline left out.
  size_t Suppressed = 0, Baselined = 0;
  /// The findings --baseline left out, for the reports that list them
  /// (HTML, folded).
  std::vector<ResolvedFinding> BaselinedFindings;
  /// Files analysed although clang rejects some of their code that nvcc or
  /// its host compiler accepts (run/NvccAcceptedErrors.h): in device-only
  /// code, or host code gcc, g++ or nvcc's front end accepts. The errors,
  /// for the record.
  std::vector<FailedFile> ToleratedErrors;
};

/// What every output says of a file in Report::ToleratedErrors.
inline constexpr const char *ToleratedErrorsMessage =
    "clang rejects some code that nvcc or its host compiler accepts (in "
    "device code, or host code gcc or nvcc's front end accepts); the rest "
    "was analysed";

/// Sorts findings as clang-tidy does (file, offset, check, message) and
/// drops duplicates (a header included by several files, say).
void sortAndUnique(std::vector<ResolvedFinding> &Findings);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_REPORT_H
