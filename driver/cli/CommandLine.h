//===- CommandLine.h - Options into one checked invocation ------*- C++ -*-===//
//
// cuda-async-lint's options (LLVM's cl::opt, as clang-tidy's), parsed and
// checked against each other before any file is read: a contradiction or a
// malformed value is a usage error, never a guess.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CLI_COMMANDLINE_H
#define CUDA_ASYNC_LINT_DRIVER_CLI_COMMANDLINE_H

#include "Invocation.h"
#include <optional>

namespace cuda_async_lint {

/// The invocation \p argv asks for; none if it is a usage error, which has
/// been said on stderr (exit status 2).
std::optional<Invocation> parseCommandLine(int Argc, const char **Argv);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CLI_COMMANDLINE_H
