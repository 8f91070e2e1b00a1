//===- LineFilter.h - Report only findings on chosen lines ------*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_LINEFILTER_H
#define CUDA_ASYNC_LINT_DRIVER_LINEFILTER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace cuda_async_lint {

/// clang-tidy's --line-filter: a list of files, each with optional
/// inclusive line ranges; a finding is reported only if its file is listed
/// (a name matches the end of the path) and its line lies in a range (or
/// the entry has none). An empty filter passes everything.
class LineFilter {
public:
  struct Entry {
    std::string Name;
    std::vector<std::pair<unsigned, unsigned>> Ranges; ///< Empty: all lines.
  };

  /// clang-tidy's JSON syntax:
  ///   [{"name":"file1.cpp","lines":[[1,3],[5,7]]},{"name":"file2.h"}]
  static llvm::Expected<LineFilter> parse(llvm::StringRef Json);

  /// The lines `git diff -U0` adds or changes, as a filter; paths in the
  /// diff are relative to \p Root.
  static LineFilter fromUnifiedDiff(llvm::StringRef Diff, llvm::StringRef Root);

  bool passes(llvm::StringRef File, unsigned Line) const;
  bool empty() const { return !Active; }

private:
  bool Active = false;
  std::vector<Entry> Entries;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_LINEFILTER_H
