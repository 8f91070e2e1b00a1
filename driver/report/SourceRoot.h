//===- SourceRoot.h - What report paths are relative to ---------*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_SOURCEROOT_H
#define CUDA_ASYNC_LINT_DRIVER_SOURCEROOT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace cuda_async_lint {

/// The directory JSON, SARIF (%SRCROOT%), Markdown, rdjson and Code Climate
/// paths and every fingerprint are relative to: \p Option if given (an
/// existing directory), else the git work tree that holds every file of
/// \p Files (the nearest directory above them with a .git entry), else
/// \p WorkingDirectory. With the work tree, a report names files as the
/// checkout does wherever the tool runs from, as code scanning expects.
llvm::Expected<std::string>
chooseSourceRoot(llvm::StringRef Option, const std::vector<std::string> &Files,
                 llvm::StringRef WorkingDirectory);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_SOURCEROOT_H
