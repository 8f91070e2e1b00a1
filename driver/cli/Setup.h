//===- Setup.h - What the modes read before they run ------------*- C++ -*-===//
//
// The pieces of a run that several modes share, each made from the
// invocation once: the configuration, the CUDA and HIP declarations to
// parse against, the input files with their compile commands, and where
// reports link the check pages.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CLI_SETUP_H
#define CUDA_ASYNC_LINT_DRIVER_CLI_SETUP_H

#include "Invocation.h"
#include "compile/CompileCommands.h"
#include "config/Configuration.h"
#include "config/Exclusions.h"
#include "output/DocsLinks.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace cuda_async_lint {

/// The flags' configuration: malformed --config or --checks is an error.
llvm::Expected<Configuration> configurationOf(const Invocation &I);

/// The CUDA and HIP declarations the run parses against (--verbose says
/// which, and why).
llvm::Expected<GpuHeaders> gpuHeadersOf(const Invocation &I);

/// The options in effect for the first file named, else for the working
/// directory, as clang-tidy's --list-checks and --dump-config show them.
llvm::Expected<clang::tidy::ClangTidyOptions>
optionsOfFirstFile(const Invocation &I);

/// Where reports link the check pages.
DocsLinks docsLinksOf(const Invocation &I);

/// The files a run analyses and where their compile commands come from.
struct RunInputs {
  std::unique_ptr<LintCompilationDatabase> Database;
  /// Absolute, without '.' and '..', each once, sorted: the report's order.
  std::vector<std::string> Files;
  /// The files --exclude or the configuration left out, as Files are named.
  std::vector<std::string> Excluded;
  /// What left them out: asked again of the program's other files.
  std::shared_ptr<Exclusions> Excludes;
};

/// The invocation's files (with -p and none named: every source file of
/// the database), each checked before any is analysed, so that a typo
/// never turns into a green run; and the configuration each uses parses,
/// and turns some check on. Each problem is an error of its own.
llvm::Expected<RunInputs> inputsOf(const Invocation &I,
                                   const Configuration &Config);

/// What a mode that parses reads first, in this order, each a usage error
/// if it fails: the configuration, the GPU declarations, and (\p WithInputs)
/// the input files.
struct ParseSetup {
  Configuration Config;
  GpuHeaders Headers;
  RunInputs Inputs;
};
llvm::Expected<ParseSetup> parseSetupOf(const Invocation &I, bool WithInputs);

/// The C, C++, CUDA and HIP files \p Database lists, as the run names them.
std::vector<std::string> sourceFilesOf(const LintCompilationDatabase &Database);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CLI_SETUP_H
