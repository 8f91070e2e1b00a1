//===- PathComponents.h - Paths compared by whole components ----*- C++ -*-===//
//
// "/src/a" is not under "/src/ab", and "data.cu" does not end in "a.cu": the
// source root, report paths and --line-filter names compare paths by whole
// components, through these two functions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_PATHCOMPONENTS_H
#define CUDA_ASYNC_LINT_DRIVER_PATHCOMPONENTS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace cuda_async_lint {

/// True if \p Path is \p Dir or lies under it.
bool isPathUnder(llvm::StringRef Path, llvm::StringRef Dir);

/// True if \p Path ends with the components of \p Suffix.
bool pathEndsWith(llvm::StringRef Path, llvm::StringRef Suffix);

/// \p Path relative to \p Root if it lies under it, else unchanged.
std::string relativePath(llvm::StringRef Path, llvm::StringRef Root);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_PATHCOMPONENTS_H
