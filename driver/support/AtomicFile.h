//===- AtomicFile.h - Writes that never leave a file half done --*- C++ -*-===//
//
// Reports, exported fixes and fixed sources are written to a temporary file
// in the target's directory and renamed over the target only once complete:
// a full disk, a closed pipe or a crash leaves the old file (or none), never
// a truncated one. A fixed source keeps its permissions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_ATOMICFILE_H
#define CUDA_ASYNC_LINT_DRIVER_ATOMICFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace cuda_async_lint {

/// Replaces \p Path by \p Content atomically. The error says
/// "cannot write 'Path': <reason>".
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Content);
/// The same, of what \p Write writes: a large document streams to the
/// file without being held as text first.
llvm::Error
writeFileAtomically(llvm::StringRef Path,
                    llvm::function_ref<void(llvm::raw_ostream &)> Write);

/// The same, of what \p Write writes unless it fails: then \p Path is
/// left as it was, and its error returned.
llvm::Error streamFileAtomically(
    llvm::StringRef Path,
    llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write);

/// Checks that \p Path can be written (its directory exists and a file can
/// be created there, and \p Path is no directory) without changing it, so a
/// run can fail before its analysis rather than after.
llvm::Error checkWritable(llvm::StringRef Path);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_ATOMICFILE_H
