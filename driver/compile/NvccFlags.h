//===- NvccFlags.h - nvcc command lines as clang command lines --*- C++ -*-===//
//
// CMake writes compile_commands.json entries for .cu files with nvcc's own
// flags (-gencode, -Xcompiler, -ccbin, --expt-*, ...). clang rejects them, so
// they are translated (the host compiler's flags, -x cu, --default-stream
// per-thread, nvcc's long spellings of -I/-D/...) or dropped (code generation
// for the device, nvcc's own diagnostics).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_NVCCFLAGS_H
#define CUDA_ASYNC_LINT_DRIVER_NVCCFLAGS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace cuda_async_lint {

/// True if \p Compiler (argv[0] of a compile command) is nvcc.
bool isNvcc(llvm::StringRef Compiler);

/// Translates nvcc's command line \p Args (argv[0] included) to a clang++
/// command line. --options-file/-optf files are read relative to
/// \p Directory; an unreadable one is an error.
llvm::Expected<std::vector<std::string>>
translateNvccCommand(const std::vector<std::string> &Args,
                     llvm::StringRef Directory);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_NVCCFLAGS_H
