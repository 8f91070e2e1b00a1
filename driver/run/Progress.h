//===- Progress.h - "[n/N] file" for a person watching ----------*- C++ -*-===//
//
// run-clang-tidy's progress lines, one per file as it ends, on stderr, for
// a person at a terminal (stdout and stderr both one); for a log or a CI
// job, a line now and then instead ("12 of 198 files analysed, 61 s"), so
// a long cold run is not silent. Only for runs of more than one file.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_PROGRESS_H
#define CUDA_ASYNC_LINT_DRIVER_PROGRESS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <optional>
#include <string>

namespace cuda_async_lint {

class Progress {
public:
  /// \p What says what ended, before the file's name ("summarized").
  /// \p Shown: a line per file; otherwise, with \p Every, a line when that
  /// long has passed since the last (or the start). The seconds a line
  /// says are counted from \p Started (default: now).
  Progress(size_t Total, llvm::raw_ostream &OS, bool Shown,
           llvm::StringRef What = "",
           std::optional<std::chrono::duration<double>> Every = std::nullopt,
           std::optional<std::chrono::steady_clock::time_point> Started =
               std::nullopt);
  /// Shown when stdout and stderr are terminals.
  static bool wanted();
  void fileEnded(llvm::StringRef File, size_t Ended);

private:
  size_t Total;
  std::string What;
  llvm::raw_ostream &OS;
  bool Shown;
  std::optional<std::chrono::duration<double>> Every;
  std::chrono::steady_clock::time_point Started, Last;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_PROGRESS_H
