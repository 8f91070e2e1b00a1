//===- FileResult.h - What analysing one file produced ----------*- C++ -*-===//
//
// A translation unit's findings and errors, and their encoding for the trip
// from the worker process that analysed the file to the process that writes
// the report (WorkerProcesses.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_FILERESULT_H
#define CUDA_ASYNC_LINT_DRIVER_FILERESULT_H

#include "Report.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_async_lint {

struct FileResult {
  /// The translation unit's main file (absolute).
  std::string File;
  /// In clang-tidy's order (sortAndUnique).
  std::vector<ResolvedFinding> Findings;
  std::optional<FailedFile> Failure;
  /// What clang rejects in the file and nvcc accepts: the file was
  /// analysed all the same (Report::ToleratedErrors).
  std::optional<FailedFile> ToleratedErrors;
  /// The findings NOLINT comments suppressed, each as "file:offset:check".
  std::vector<std::string> Suppressed;
  /// What clang-tidy's option reading said of the file's configuration (an
  /// option value that is not a number, say), rendered.
  std::vector<std::string> ConfigurationWarnings;
  /// A summarizing run (summarizeFiles): the unit's summary, as JSON text,
  /// and each file its parse read with the content hash of what it read,
  /// for the summary cache: not the files the checks then opened to point
  /// a note into another unit, which another worker's timing decides.
  std::string Summary;
  std::vector<std::pair<std::string, std::string>> SummaryInputs;
  /// The questions the analysis asked of the program's summaries and their
  /// answers (summaries/ProgramQueries.h), as JSON text; empty if none were
  /// recorded. The findings hold while the program answers them alike.
  std::string Queries;
  /// Every file the parse and the checks read, with its hash, for the
  /// result cache.
  std::vector<std::pair<std::string, std::string>> Inputs;
  /// What the worker's parse and analysis took, in microseconds, for
  /// --verbose: the parse up to the end of the translation unit (template
  /// instantiation included), then the checks (or the summary). Zero for a
  /// result read from the cache.
  uint64_t ParseMicroseconds = 0;
  uint64_t AnalysisMicroseconds = 0;
  /// For AnalysisOptions::TemplatesOf: the templates of that file whose
  /// code calls CUDA and that this unit instantiates nowhere (name, line).
  std::vector<std::pair<std::string, unsigned>> UninstantiatedTemplates;
};

/// Length-prefixed binary: paths need not be UTF-8, and nothing is lost.
std::string encodeFileResult(const FileResult &R);

/// The inverse of encodeFileResult; an error for bytes it did not produce
/// (a worker that died while writing them, say).
llvm::Expected<FileResult> decodeFileResult(llvm::StringRef Bytes);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_FILERESULT_H
