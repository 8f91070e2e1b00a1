//===- CheckNames.h - Check names that name no check ------------*- C++ -*-===//
//
// A misspelt check name in Checks or WarningsAsErrors selects nothing, and
// a gate that was meant to fail on it passes: 'cuda-async-dealoc-mismatch'
// in WarningsAsErrors turns a real free() of pinned memory into a warning.
// Every configuration source is held to this: a glob that starts with
// 'cuda-async-' must match one of our checks. Other tools' names
// ('bugprone-*', '-*', 'clang-analyzer-*') are not ours to judge.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_CHECKNAMES_H
#define CUDA_ASYNC_LINT_CHECKNAMES_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace cuda_async_lint {

/// A glob of a check list that is spelt as one of ours but matches none.
struct UnknownCheckName {
  /// The glob as written, without its '-'.
  std::string Name;
  /// Where it starts in the list.
  size_t Offset;
  /// Our check id nearest to it (edit distance).
  llvm::StringRef Nearest;
};

/// The globs of the comma-separated \p Globs ('-*,cuda-async-*') that start
/// with 'cuda-async-' and match none of our checks, in order.
std::vector<UnknownCheckName> unknownCheckNames(llvm::StringRef Globs);

/// The id of our check nearest to \p Name.
llvm::StringRef nearestCheck(llvm::StringRef Name);

/// "unknown check 'X' in \p Where; did you mean 'Y'?"
std::string describe(const UnknownCheckName &U, llvm::StringRef Where);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_CHECKNAMES_H
