//===- Exclusions.h - Files a run leaves out --------------------*- C++ -*-===//
//
// A project with optional dependencies has files that never parse on its CI
// image; a gate must tell "new bug" from "that file never parses here".
// --exclude=GLOB (repeatable) and the configuration's global option
// cuda-async-lint.Exclude (in CheckOptions: clang-tidy 22 rejects unknown
// top-level keys, so a key beside Checks would stop the plugin reading the
// file) name files that are neither analysed nor summarized. Each glob is
// matched against the file's path relative to the source root (report
// paths' root), with llvm::GlobPattern: '*' also matches '/', '?', '[...]'
// and '{a,b}' as in shells.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CONFIG_EXCLUSIONS_H
#define CUDA_ASYNC_LINT_DRIVER_CONFIG_EXCLUSIONS_H

#include "Configuration.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/GlobPattern.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cuda_async_lint {

/// The CheckOptions key that holds a configuration's globs, separated by
/// ';' or ',' (outside braces) or new lines.
inline constexpr const char *ExcludeOption = "cuda-async-lint.Exclude";

class Exclusions {
public:
  /// A compiled glob. GlobPattern keeps a reference to the text it was made
  /// from: the text lives here, where moves do not reach it.
  struct Glob {
    std::unique_ptr<std::string> Text;
    llvm::GlobPattern Pattern;
  };

  /// \p CommandLine: --exclude's globs. A glob that does not compile is an
  /// error naming it.
  static llvm::Expected<Exclusions>
  make(const std::vector<std::string> &CommandLine, std::string SourceRoot);

  /// Whether \p File (absolute) is left out: a --exclude glob or its
  /// configuration's (in \p Config) cuda-async-lint.Exclude matches its
  /// path relative to the source root. A configuration glob that does not
  /// compile is an error naming it.
  llvm::Expected<bool> excludes(llvm::StringRef File,
                                const Configuration &Config) const;

  /// Leaves in \p Files those not excluded (excludes), in order, and
  /// moves the others to \p Excluded if given.
  llvm::Error removeExcluded(std::vector<std::string> &Files,
                             const Configuration &Config,
                             std::vector<std::string> *Excluded) const;

  /// The path globs are matched against: relative to the source root, '/'
  /// separated; absolute for a file outside it.
  std::string relativePath(llvm::StringRef File) const;

private:
  std::vector<Glob> Given;
  std::string SourceRoot;
  /// The compiled globs of each configuration value seen.
  mutable std::map<std::string, std::vector<Glob>> ByValue;
};

/// The globs of one cuda-async-lint.Exclude value.
std::vector<std::string> splitExcludeGlobs(llvm::StringRef Value);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CONFIG_EXCLUSIONS_H
