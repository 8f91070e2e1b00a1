//===- FixDiff.h - A finding's fix-its as a unified diff --------*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_FIXDIFF_H
#define CUDA_ASYNC_LINT_DRIVER_FIXDIFF_H

#include "Report.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>
#include <string>

namespace cuda_async_lint {

/// The fix-its of \p F as a unified diff of the lines they touch, headed by
/// \p DisplayPath: what a reviewer reads. std::nullopt if \p F has no
/// fixes, or its file is unreadable or changed since it was parsed (a diff
/// against other content would be wrong).
std::optional<std::string> fixAsUnifiedDiff(const ResolvedFinding &F,
                                            llvm::StringRef DisplayPath,
                                            llvm::vfs::FileSystem &Sources);

/// The same, against \p Content, the fixed file as the caller already read
/// it (a report that quotes the file reads it once).
std::optional<std::string> fixAsUnifiedDiff(const ResolvedFinding &F,
                                            llvm::StringRef DisplayPath,
                                            llvm::StringRef Content);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_FIXDIFF_H
