//===- Analysis.h - Running the checks over translation units ---*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_ANALYSIS_H
#define CUDA_ASYNC_LINT_DRIVER_ANALYSIS_H

#include "TranslationUnitCache.h"
#include "WorkerProcesses.h"
#include "compile/CompileCommands.h"
#include "config/Configuration.h"
#include "report/FileResult.h"
#include "report/Report.h"
#include "summaries/ProgramSummaries.h"
#include <chrono>
#include <functional>
#include <optional>
#include <set>
#include <tuple>

namespace cuda_async_lint {

class ParkedParses;

struct AnalysisOptions {
  const LintCompilationDatabase *Database = nullptr;
  /// A header analysed through this unit (the language server's): the
  /// result lists its templates the unit never instantiates.
  std::string TemplatesOf;
  clang::tooling::ArgumentsAdjuster Adjuster;
  /// Each file's checks, their options, NOLINT and header filters.
  const Configuration *Config = nullptr;
  /// Translation units analysed at once; 0 picks the number of cores.
  unsigned Jobs = 0;
  /// What the parses a whole-program run keeps may hold (ParkedParses.h),
  /// in bytes; none: the default.
  std::optional<uint64_t> ParkedMemory;
  /// A shorter parse is not kept (none: ParkedParses::ShortestKept).
  std::optional<std::chrono::milliseconds> ShortestParkedParse;
  /// A file whose analysis takes longer is stopped and fails; 0: no limit.
  std::chrono::seconds Timeout{0};
  /// Called as each file ends, in the order they end: \p Ended of \p Total.
  std::function<void(const std::string &File, size_t Ended, size_t Total)>
      OnFileEnded;
  /// Called in the order of the files as the report grows, with a file's
  /// findings that no earlier file reported, and its errors; what it leaves
  /// in the result goes into the report.
  std::function<void(FileResult &)> OnFileReported;
  /// Called for a result of the result cache (or of a summary store) that
  /// the program installed answers otherwise, with the first question it
  /// answers otherwise: its unit is analysed again.
  std::function<void(const std::string &File, const std::string &Why)>
      OnResultOutdated;
  /// Each file's result is kept here, and read back while nothing it was
  /// made from changed and the program's summaries answer its questions
  /// alike (null: no cache).
  TranslationUnitCache *Results = nullptr;
  /// Files read from these texts instead of the disk (an editor's unsaved
  /// buffers): absolute path, text.
  std::vector<std::pair<std::string, std::string>> Unsaved;
};

/// The key of \p File in \p Cache: its compile command as the analysis
/// runs it, its effective configuration, and \p Extra. None if its
/// compile command cannot be read (the analysis reports that).
std::optional<std::string> cacheKeyOf(const std::string &File,
                                      const AnalysisOptions &Options,
                                      const TranslationUnitCache &Cache,
                                      llvm::StringRef Extra = "");

/// What a worker makes of its unit's parse: findings (with the questions
/// they asked of the program), the unit's summary, or both from one parse.
enum class UnitWork { Check, Summarize, SummarizeAndCheck };

/// Parses \p File and does \p Work, in this process. A file that fails to
/// parse gives its errors, not findings: an AST rebuilt around errors would
/// make findings up. Errors confined to device-only functions do not touch
/// the host code: such a file is analysed, its errors noted. A summary is
/// made from the unit alone, a check against the program installed when
/// \p BeforeChecks (if any), run after the parse, returns.
/// \p Park, if given, may keep the parse in a process of its own
/// (ParkedParses.h), which checks it later.
FileResult analyzeUnit(const std::string &File, const AnalysisOptions &Options,
                       UnitWork Work,
                       llvm::function_ref<void()> BeforeChecks = nullptr,
                       llvm::function_ref<bool()> Park = nullptr);

/// The worker processes that run at once: Options.Jobs, or one per core.
unsigned workerCount(const AnalysisOptions &Options);

/// analyzeUnit of each of \p Files, \p Work(I) of file I, each in its own
/// worker process, Options.Jobs at a time: a file on which clang crashes or
/// runs past the time limit fails alone. \p Done(I, Result) gets each
/// file's result as it ends; a worker forked after the program installed
/// changes sees the change. \p BeforeChecks runs in each worker after its
/// parse. With \p Parks, each worker that checks parks its parse there,
/// to be checked again after \p Rebuild installed the whole program.
void runUnits(const std::vector<std::string> &Files,
              llvm::function_ref<UnitWork(size_t)> Work,
              const AnalysisOptions &Options,
              llvm::function_ref<void(size_t, FileResult)> Done,
              llvm::function_ref<void()> BeforeChecks = nullptr,
              ParkedParses *Parks = nullptr,
              llvm::function_ref<void()> Rebuild = nullptr);

/// The result of \p File's worker as it ended: what it returned if it
/// finished, else a failure saying why (time limit \p Timeout, a crash).
FileResult resultOfWorker(const std::string &File, WorkerOutcome O,
                          std::chrono::seconds Timeout);

/// The result the result cache holds under \p Key, if the program installed
/// now answers its questions alike (\p Verify; else the caller checks them
/// with whyResultDiffers).
std::optional<FileResult> cachedResult(llvm::StringRef Key,
                                       const AnalysisOptions &Options,
                                       bool Verify = true);
/// Keeps \p R (unless it failed) in the result cache under \p Key.
void keepResult(llvm::StringRef Key, const FileResult &R,
                const AnalysisOptions &Options);
/// The result cache's entry of \p R under \p Key (none if it failed, or
/// its inputs' bytes were not kept), as a summary store carries it.
std::optional<llvm::json::Object> resultEntry(llvm::StringRef Key,
                                              const FileResult &R);
/// Why \p R's findings may not be its findings against \p Program (null:
/// none): the first of its questions \p Program answers otherwise. None if
/// it failed, or \p Program answers each question as it was answered.
std::optional<std::string> whyResultDiffers(const FileResult &R,
                                            const ProgramSummaries *Program);

/// A report that grows in the order of its files, whatever the order their
/// results come in: each file's findings in clang-tidy's order, a finding
/// several files report once, where the first reports it.
class ReportBuilder {
public:
  ReportBuilder(const std::vector<std::string> &Files,
                const AnalysisOptions &Options);
  /// File \p I's result: Options.OnFileEnded hears of it now,
  /// Options.OnFileReported once every file before it is in.
  void add(size_t I, FileResult Result);
  Report take() { return std::move(R); }

private:
  const std::vector<std::string> &Files;
  const AnalysisOptions &Options;
  std::vector<std::optional<FileResult>> Results;
  Report R;
  std::set<std::tuple<std::string, unsigned, std::string, std::string>>
      Reported;
  size_t Ended = 0, NextReported = 0;
};

/// Parses and checks each of \p Files (runUnits), against the program
/// installed now, reading from and filling the result cache.
Report analyzeFiles(const std::vector<std::string> &Files,
                    const AnalysisOptions &Options);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_ANALYSIS_H
