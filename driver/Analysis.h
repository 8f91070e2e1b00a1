//===- Analysis.h - Running the checks over translation units ---*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_ANALYSIS_H
#define CUDA_ASYNC_LINT_DRIVER_ANALYSIS_H

#include "CompileCommands.h"
#include "Configuration.h"
#include "FileResult.h"
#include "Report.h"
#include "TranslationUnitCache.h"
#include <chrono>
#include <functional>

namespace cuda_async_lint {

struct AnalysisOptions {
  const LintCompilationDatabase *Database = nullptr;
  clang::tooling::ArgumentsAdjuster Adjuster;
  /// Each file's checks, their options, NOLINT and header filters.
  const Configuration *Config = nullptr;
  /// Translation units analysed at once; 0 picks the number of cores.
  unsigned Jobs = 0;
  /// A file whose analysis takes longer is stopped and fails; 0: no limit.
  std::chrono::seconds Timeout{0};
  /// Called as each file ends, in the order they end: \p Ended of \p Total.
  std::function<void(const std::string &File, size_t Ended, size_t Total)>
      OnFileEnded;
  /// Called in the order of the files as the report grows, with a file's
  /// findings that no earlier file reported, and its errors; what it leaves
  /// in the result goes into the report.
  std::function<void(FileResult &)> OnFileReported;
  /// Each file's result is kept here, and read back while nothing it was
  /// made from changed (null: no cache).
  TranslationUnitCache *Results = nullptr;
  /// What the results depend on beyond each file: the program's summaries
  /// in effect (their hash; empty for none).
  std::string ProgramIdentity;
};

/// The key of \p File in \p Cache: its compile command as the analysis
/// runs it, its effective configuration, and \p Extra. None if its
/// compile command cannot be read (the analysis reports that).
std::optional<std::string> cacheKeyOf(const std::string &File,
                                      const AnalysisOptions &Options,
                                      const TranslationUnitCache &Cache,
                                      llvm::StringRef Extra = "");

/// Parses and checks each of \p Files, each in its own worker process,
/// in parallel. A file that fails to parse contributes its errors, not
/// findings: an AST rebuilt around errors would make findings up. Errors
/// confined to device-only functions do not touch the host code: such a file
/// is analysed, its errors noted. A file on which clang crashes or runs past
/// the time limit fails alone. The report lists the files' findings in the
/// order of \p Files (each file's in clang-tidy's order, a finding several
/// files report once, where the first reports it), whatever the parallelism.
Report analyzeFiles(const std::vector<std::string> &Files,
                    const AnalysisOptions &Options);

/// The first phase of a whole-program run: parses each of \p Files as
/// analyzeFiles does and summarizes it (summaries/Summarize.h) instead of
/// checking it. \p Summarized(I, Result) gets each file's FileResult (its
/// Summary and Inputs, or its Failure) as it ends.
void summarizeFiles(const std::vector<std::string> &Files,
                    const AnalysisOptions &Options,
                    llvm::function_ref<void(size_t, FileResult)> Summarized);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_ANALYSIS_H
