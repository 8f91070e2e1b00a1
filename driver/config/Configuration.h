//===- Configuration.h - .clang-tidy files and options, as clang-tidy
//------===//
//
// The driver is configured as clang-tidy is, by clang-tidy's own code:
// ClangTidyOptions, FileOptionsProvider (the nearest .clang-tidy up the tree,
// InheritParentConfig), ConfigOptionsProvider (--config, --config-file) and
// GlobList. The command line's --checks, --warnings-as-errors,
// --header-filter, --exclude-header-filter and --system-headers override
// what the files say, as in clang-tidy.
//
// One difference, because this driver runs only our checks: a .clang-tidy
// file (or --config-file) decides about our checks only if it names one.
// Its Checks (and, alike, its WarningsAsErrors) are read as clang-tidy
// reads them when some glob other than a bare '*' matches one of our ids
// ('-*,cuda-async-*', '-cuda-async-default-stream',
// '-*,cuda-async-pageable-copy'); a list that names none of them
// ('-*,bugprone-*', the common shape) was written for clang-tidy's own
// checks and is left out, so it neither disables ours nor makes their
// findings errors. --checks and --config are this tool's own and apply as
// given. The clang-tidy plugin keeps clang-tidy's rules exactly.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CONFIGURATION_H
#define CUDA_ASYNC_LINT_DRIVER_CONFIGURATION_H

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cuda_async_lint {

/// What the command line says of the configuration; an unset field leaves
/// the configuration files' value.
struct ConfigurationFlags {
  std::optional<std::string> Checks;
  std::optional<std::string> WarningsAsErrors;
  std::optional<std::string> HeaderFilter;
  std::optional<std::string> ExcludeHeaderFilter;
  std::optional<bool> SystemHeaders;
  /// --extra-arg, --extra-arg-before: after the configuration's ExtraArgs
  /// and ExtraArgsBefore, as clang-tidy adds them.
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  /// --config: YAML or JSON text.
  std::string ConfigText;
  /// --config-file: a file in .clang-tidy's format.
  std::string ConfigFile;
};

class Configuration {
public:
  /// Checks and parses the flags: a malformed --config, a missing or
  /// malformed --config-file, or a check name in --checks that names no
  /// check (a typo that would silently disable it) is an error.
  static llvm::Expected<Configuration> fromFlags(const ConfigurationFlags &F);

  /// A provider of each file's options, as clang-tidy's would give them.
  std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> makeProvider() const;

  /// Reads every configuration file the analysis of \p Files will read
  /// (each file's nearest .clang-tidy, and its parents' while they are
  /// inherited) and fails naming the first that does not parse: clang-tidy
  /// would print an error and go on without it, which in a merge gate
  /// silently changes what is checked. \p Warnings receives what parses
  /// with complaints (an unknown key, say).
  llvm::Error checkFiles(const std::vector<std::string> &Files,
                         std::vector<std::string> &Warnings) const;

  /// The options in effect for \p File, defaults included.
  clang::tidy::ClangTidyOptions optionsFor(llvm::StringRef File) const;

private:
  clang::tidy::ClangTidyGlobalOptions Global;
  clang::tidy::ClangTidyOptions Defaults;
  clang::tidy::ClangTidyOptions Overrides;
  /// --config or --config-file: no .clang-tidy file is read.
  std::optional<clang::tidy::ClangTidyOptions> Given;
  /// optionsFor's provider, made on first use.
  mutable std::shared_ptr<clang::tidy::ClangTidyOptionsProvider> Shared;
};

/// The ids of our checks that \p Options enable.
std::vector<llvm::StringRef>
enabledChecks(const clang::tidy::ClangTidyOptions &Options);

/// \p Options in .clang-tidy's format, with the enabled checks' options.
std::string dumpConfiguration(const clang::tidy::ClangTidyOptions &Options);

/// What of \p Options changes a file's analysis, for the result and
/// summary caches' keys: the checks of ours it enables, their options
/// (defaults included) and the global options without a check's prefix,
/// the header filters and the extra compiler arguments. Not what only the
/// report or the exit status depends on (WarningsAsErrors: regateFindings,
/// run/Gate.h, applies it to cached results), nor other tools' checks
/// and options.
std::string analysisConfiguration(const clang::tidy::ClangTidyOptions &Options);

/// Whether the gate of a file with \p Options is decided by
/// WarningsAsErrors: set and not empty. Otherwise every finding fails it.
bool warningsAsErrorsDecideGate(const clang::tidy::ClangTidyOptions &Options);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CONFIGURATION_H
