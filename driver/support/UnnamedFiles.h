//===- UnnamedFiles.h - Temporary files with no name ------------*- C++ -*-===//
//
// Files a run writes and reads back, with no name from the moment they
// exist, so that they are gone when the run ends, however it ends: the
// summary journal workers read through the descriptor they inherit, a
// merge's results until the merged store is written. Read from an offset a
// chunk at a time, through LLVM's readNativeFileSlice.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_SUPPORT_UNNAMEDFILES_H
#define CUDA_ASYNC_LINT_SUPPORT_UNNAMEDFILES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>

namespace cuda_async_lint {

/// A new temporary file (\p Prefix, \p Suffix as createTemporaryFile
/// takes them), open for reading and writing, its name already removed.
llvm::Expected<int> createUnnamedFile(llvm::StringRef Prefix,
                                      llvm::StringRef Suffix);

/// Gives \p Each, in order, the bytes of \p FD from offset \p From until
/// \p Size of them are read or the file ends. A failed read stops it with
/// its error; the chunks given before it stand.
llvm::Error readFileSlices(int FD, uint64_t From, uint64_t Size,
                           llvm::function_ref<void(llvm::StringRef)> Each);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_SUPPORT_UNNAMEDFILES_H
