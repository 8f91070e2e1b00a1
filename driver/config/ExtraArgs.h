//===- ExtraArgs.h - The configuration's compiler arguments -----*- C++ -*-===//
//
// A .clang-tidy's ExtraArgs and ExtraArgsBefore are added to every compile
// command as clang-tidy adds them (ClangTidyMain's
// PerFileExtraArgumentsInserter): after the command, and before it but after
// the compiler's name. So one configuration file gives the plugin and the
// driver the same view of a file (thrust's include/cccl, say;
// docs/editors.md).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CONFIG_EXTRAARGS_H
#define CUDA_ASYNC_LINT_DRIVER_CONFIG_EXTRAARGS_H

#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"

namespace cuda_async_lint {

/// The adjuster that adds \p Options' ExtraArgsBefore and ExtraArgs; null
/// if it sets neither.
clang::tooling::ArgumentsAdjuster
extraArgsAdjuster(const clang::tidy::ClangTidyOptions &Options);

/// The adjuster that makes the command a file's parse runs: \p Base (the
/// translated command), then \p Options' extra arguments. --verbose prints
/// what the parse runs with it.
clang::tooling::ArgumentsAdjuster
parseAdjuster(clang::tooling::ArgumentsAdjuster Base,
              const clang::tidy::ClangTidyOptions &Options);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CONFIG_EXTRAARGS_H
