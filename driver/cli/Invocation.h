//===- Invocation.h - One run of cuda-async-lint, as asked ------*- C++ -*-===//
//
// The command line and environment a run reads, parsed and checked once
// (CommandLine.cpp) and then only read: every mode takes the same
// invocation, so that no mode sees an option another has reinterpreted.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CLI_INVOCATION_H
#define CUDA_ASYNC_LINT_DRIVER_CLI_INVOCATION_H

#include "config/Configuration.h"
#include "output/Output.h"
#include "summaries/ProgramSummaries.h"
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace cuda_async_lint {

/// What the run does; the options that pick one win in this order.
enum class RunMode {
  /// --merge-summaries: a CI matrix's shard stores into one.
  MergeSummaries,
  /// --list-checks, --dump-config: the configuration in effect.
  ListChecks,
  DumpConfig,
  /// --lsp: findings for an editor, as it edits.
  LanguageServer,
  /// --export-compile-commands: the database translated for clang tools.
  ExportCompileCommands,
  /// --emit-summaries: a program's (or a shard's) summary store.
  EmitSummaries,
  /// The files' findings, reported.
  Analyse,
};

struct Invocation {
  RunMode Mode = RunMode::Analyse;
  /// The positional files, as given (stores, with --merge-summaries).
  std::vector<std::string> Files;
  /// -p: the compilation database's directory.
  std::string BuildPath;
  /// Everything after '--': the compile command of every file.
  std::optional<std::vector<std::string>> ExtraArgs;
  ConfigurationFlags Configuration;
  /// --exclude: globs of files left out (config/Exclusions.h).
  std::vector<std::string> Exclude;
  /// --parse-errors-fail: a file that cannot be analysed exits 3 (else
  /// it is reported, and the findings decide).
  bool ParseErrorsFail = true;
  /// --quiet: no summary on standard error.
  bool Quiet = false;
  /// --progress-every: where no progress line per file is shown, a line
  /// this often.
  unsigned ProgressEverySeconds = 30;

  ReportFormat Format = ReportFormat::Text;
  std::string OutputPath;
  /// --report=FORMAT:FILE, each: more reports of the same analysis.
  std::vector<std::pair<ReportFormat, std::string>> Reports;
  bool Fix = false;
  std::string ExportFixes;
  std::string BaselinePath;
  std::string RuntimeTrace;
  std::string SourceRoot;
  std::string LineFilterJson;
  std::string DiffRef;
  std::string DocsUrl;

  /// The GPU declarations to parse against: options, then environment.
  std::string CudaPath, CudaPathEnv;
  bool UseBundledCuda = false;
  std::string HipPath, RocmPathEnv, HipPathEnv;
  bool UseBundledHip = false;

  std::string ExportCompileCommandsDir;

  unsigned Jobs = 0;
  /// --parked-memory, in bytes; none: ParkedParses' default.
  std::optional<uint64_t> ParkedMemory;
  /// --shortest-parked-parse (hidden, for tests), in milliseconds.
  std::optional<unsigned> ShortestParkedParse;
  std::chrono::seconds Timeout{0};
  bool WholeProgram = true;
  /// --summaries, --emit-summaries, --merge-summaries: summary stores.
  std::string SummariesIn, EmitSummaries, MergeSummaries;
  std::optional<ProgramSummaries::ShardOf> Shard;
  /// --cache-dir, else $CUDA_ASYNC_LINT_CACHE_DIR; empty: no cache.
  std::string CacheDir;
  std::chrono::milliseconds LspDebounce{500};
  bool Verbose = false;

  /// This executable's path: <prefix>/bin/cuda-async-lint.
  std::string Executable;
  /// The working directory the run was started in.
  std::string WorkingDirectory;
};

/// How often a run not shown per file says how far it is; none with
/// --quiet.
inline std::optional<std::chrono::duration<double>>
progressEvery(const Invocation &I) {
  if (I.Quiet)
    return std::nullopt;
  return std::chrono::duration<double>(I.ProgressEverySeconds);
}

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CLI_INVOCATION_H
