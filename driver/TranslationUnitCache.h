//===- SummaryCache.h - Translation unit summaries kept between runs -*- C++
//-*-===//
//
// A whole-program run summarizes every translation unit of the database
// before it analyses any. The cache keeps each unit's summary under a key of
// what the summary depends on besides file contents (the tool and summary
// versions, the file, its compile command, its configuration), with the
// content hash of every file its parse read, as ccache's direct mode does: a
// re-run re-summarizes exactly the units a changed file is part of. An
// entry that does not parse, or names a file that changed or is gone, is a
// miss, never trusted; entries are written whole (a rename), so concurrent
// runs never see half of one.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_SUMMARYCACHE_H
#define CUDA_ASYNC_LINT_DRIVER_SUMMARYCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <optional>
#include <string>

namespace cuda_async_lint {

/// The hash the cache compares file contents by (XXH3, 128 bits, in hex).
std::string fileContentHash(llvm::StringRef Bytes);

class SummaryCache {
public:
  /// The cache under \p Dir (created if missing); an error if it cannot be.
  static llvm::Expected<SummaryCache> open(llvm::StringRef Dir);

  /// The key of \p File's summary, compiled with \p CommandLine under the
  /// configuration \p Configuration (its effective options, rendered).
  std::string key(llvm::StringRef File, llvm::ArrayRef<std::string> CommandLine,
                  llvm::StringRef Configuration) const;

  /// The summary stored under \p Key if every file it was made from is
  /// unchanged.
  std::optional<llvm::json::Object> lookup(llvm::StringRef Key);

  /// Stores \p Summary under \p Key with \p Inputs, the files
  /// its parse read and the hashes of what it read. Best effort: a cache
  /// that cannot be written only costs time; the error says why.
  llvm::Error store(llvm::StringRef Key, const llvm::json::Object &Summary,
                    llvm::ArrayRef<std::pair<std::string, std::string>> Inputs);

  unsigned hits() const { return Hits; }
  unsigned misses() const { return Misses; }

private:
  explicit SummaryCache(std::string Dir) : Dir(std::move(Dir)) {}
  std::string entryPath(llvm::StringRef Key) const;
  /// The content hash of the file \p Path, once per run; empty if
  /// unreadable.
  const std::string &fileHash(llvm::StringRef Path);

  std::string Dir;
  llvm::StringMap<std::string> Hashes;
  unsigned Hits = 0, Misses = 0;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_SUMMARYCACHE_H
