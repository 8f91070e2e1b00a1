//===- ExportCompileCommands.h - A database clang tools can read -*- C++
//-*-===//
//
// clangd and clang-tidy read nvcc's compile_commands.json entries as clang
// commands and choke on -gencode, -Xcompiler, -x cu, --options-file... This
// writes the database the driver itself parses with, for those tools.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_EXPORTCOMPILECOMMANDS_H
#define CUDA_ASYNC_LINT_DRIVER_EXPORTCOMPILECOMMANDS_H

#include "CompileCommands.h"
#include "llvm/Support/Error.h"

namespace cuda_async_lint {

/// Writes \p Dir/compile_commands.json (creating \p Dir) with one entry per
/// command of each of \p Files: nvcc's flags translated, then \p HostView
/// applied (the host side only, the CUDA declarations). Written atomically,
/// never over \p BuildPath's own database; what was written ("N compile
/// commands to 'PATH'"), or why nothing was.
llvm::Expected<std::string> exportCompileCommands(
    const LintCompilationDatabase &Database, llvm::StringRef BuildPath,
    const std::vector<std::string> &Files,
    const clang::tooling::ArgumentsAdjuster &HostView, llvm::StringRef Dir);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_EXPORTCOMPILECOMMANDS_H
