//===- InputFiles.h - Why a path cannot be read, in one line ----*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_INPUTFILES_H
#define CUDA_ASYNC_LINT_DRIVER_INPUTFILES_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace cuda_async_lint {

/// Why \p Path cannot be looked at, or an empty string: no such file, a
/// symbolic link loop, a directory on its path that cannot be searched.
std::string whyInaccessible(llvm::StringRef Path);

/// Why \p Path cannot be read as a source file, or an empty string: on top
/// of whyInaccessible(), a directory, a FIFO, device or socket (a FIFO would
/// block the parse forever, a device reads as anything), no read permission.
std::string whyNotReadableFile(llvm::StringRef Path);

/// Why a source beginning with \p Start (its first bytes) cannot be parsed,
/// or an empty string: a byte order mark of an encoding clang does not read
/// (UTF-16, UTF-32, UTF-7, EBCDIC...; clang reads UTF-8). clang's own check
/// decides; its fatal error on a main file makes clang 22's C++20
/// preprocessor crash (Lexer::peekNextPPToken on a file it never entered),
/// so the driver asks first.
std::string whyUnsupportedEncoding(llvm::StringRef Path, llvm::StringRef Start);

/// The same for the file at \p Path as it is on disk.
std::string whyUnsupportedEncoding(llvm::StringRef Path);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_INPUTFILES_H
