//===- NoLintIndex.h - Where a file's NOLINT comments are -------*- C++ -*-===//
//
// clang-tidy's NoLintDirectiveHandler reads a diagnostic's whole line, and
// the line before, for NOLINT comments, at every diagnostic: on one line of
// 4,000 findings (generated or minified code) that is 4,000 reads of the
// line. The index finds each file's NOLINT comments once, so only a
// diagnostic that one may cover goes to the handler, which still decides.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_RUN_NOLINTINDEX_H
#define CUDA_ASYNC_LINT_DRIVER_RUN_NOLINTINDEX_H

#include "clang/Basic/SourceManager.h"
#include <map>
#include <tuple>
#include <vector>

namespace cuda_async_lint {

class NoLintIndex {
public:
  /// Whether a NOLINT comment may cover a diagnostic at \p Loc, by the places
  /// clang-tidy's handler looks: the line of its spelling location and of
  /// each macro expansion it comes through, the line before each
  /// (NOLINTNEXTLINE), and the NOLINTBEGIN/END blocks of their files.
  bool mayCover(const clang::SourceManager &SM, clang::SourceLocation Loc);

private:
  struct FileComments {
    /// Where "NOLINT" occurs, in order.
    std::vector<unsigned> Offsets;
    /// Whether a NOLINTBEGIN or NOLINTEND occurs: a block may cover any
    /// line, and the handler reports an unmatched one.
    bool HasBlocks = false;
  };
  const FileComments &commentsOf(const clang::SourceManager &SM,
                                 clang::FileID FID);

  /// By the buffer (its start, its size) and its file's name, as
  /// clang-tidy's handler caches NOLINT blocks by the file's name.
  std::map<std::tuple<const char *, size_t, std::string>, FileComments> Files;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_RUN_NOLINTINDEX_H
