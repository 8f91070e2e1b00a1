//===- CompileCommandsJson.h - compile_commands.json's shape ----*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_COMPILECOMMANDSJSON_H
#define CUDA_ASYNC_LINT_DRIVER_COMPILECOMMANDSJSON_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>

namespace cuda_async_lint {

/// Reads \p Path, once, and checks that it holds what the JSON Compilation
/// Database format (clang's JSONCompilationDatabase.rst) describes: valid
/// JSON, an array of objects, each with a string "file", an absolute
/// "directory", and a string "command" or an array of string "arguments".
/// The content, for clang's loader; or an error naming the file, the entry
/// and what is wrong, in one line.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readCompileCommandsJson(llvm::StringRef Path);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_COMPILECOMMANDSJSON_H
