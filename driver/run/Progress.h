//===- Progress.h - "[n/N] file" for a person watching ----------*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_PROGRESS_H
#define CUDA_ASYNC_LINT_DRIVER_PROGRESS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace cuda_async_lint {

/// run-clang-tidy's progress lines, one per file as it ends, on stderr.
/// Shown only to a person at a terminal (stdout and stderr both one) and
/// only for runs of more than one file: a pipe, a log or a CI job gets
/// nothing extra.
class Progress {
public:
  /// \p What says what ended, before the file's name ("summarized").
  Progress(size_t Total, llvm::raw_ostream &OS, bool Shown,
           llvm::StringRef What = "");
  /// Shown when stdout and stderr are terminals.
  static bool wanted();

  void fileEnded(llvm::StringRef File, size_t Ended);

private:
  size_t Total;
  std::string What;
  llvm::raw_ostream &OS;
  bool Shown;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_PROGRESS_H
