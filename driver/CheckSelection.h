//===- CheckSelection.h - --checks, in clang-tidy's glob syntax -*- C++ -*-===//
//
// A comma-separated list of globs; '*' matches any characters, a leading '-'
// disables what the glob matches, and later globs override earlier ones.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CHECKSELECTION_H
#define CUDA_ASYNC_LINT_DRIVER_CHECKSELECTION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"
#include <memory>
#include <vector>

namespace cuda_async_lint {

class CheckSelection {
public:
  /// Parses \p Globs. A glob without '*' must name a known check, so a typo
  /// is an error rather than a silently disabled check.
  static llvm::Expected<CheckSelection> parse(llvm::StringRef Globs);

  bool isEnabled(llvm::StringRef CheckId) const;

private:
  struct Glob {
    bool Positive;
    std::shared_ptr<llvm::Regex> Pattern;
  };
  std::vector<Glob> Globs;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CHECKSELECTION_H
