//===- TranslationUnitCache.h - Per-unit results kept between runs -*- C++ -*-//
//
// What a run computes per translation unit (the summaries of a
// whole-program run's first phase, the findings of its analysis) is kept
// under a key of what it depends on besides file contents (the tool's own
// build, the file, its compile command, its configuration, and for findings
// the program's summaries), with the content hash of every file the parse
// read, as ccache's direct mode does: a re-run redoes exactly the units a
// changed file is part of. An entry that does not parse, or names a file
// that changed or is gone, is a miss, never trusted; entries are written
// whole (a rename), so concurrent runs never see half of one.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_TRANSLATIONUNITCACHE_H
#define CUDA_ASYNC_LINT_DRIVER_TRANSLATIONUNITCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_async_lint {

/// The hash the cache compares file contents by (XXH3, 128 bits, in hex).
std::string fileContentHash(llvm::StringRef Bytes);

/// The files a parse read, each with the hash of the bytes it read.
using ParseInputs = std::vector<std::pair<std::string, std::string>>;

class TranslationUnitCache {
public:
  /// The cache of \p Kind ("summaries", "results") under \p Dir (created if
  /// missing); an error if it cannot be.
  static llvm::Expected<TranslationUnitCache> open(llvm::StringRef Dir,
                                                   llvm::StringRef Kind);
  /// A cache of \p Kind in memory only: what store() and preload() give it,
  /// for this run.
  static TranslationUnitCache inMemory(llvm::StringRef Kind) {
    return TranslationUnitCache("", std::string(Kind));
  }

  /// The entry store() keeps: \p Value under \p Key, made from \p Inputs;
  /// none if the parse did not keep the bytes of one of them.
  static std::optional<llvm::json::Object> entry(llvm::StringRef Key,
                                                 llvm::json::Value Value,
                                                 const ParseInputs &Inputs);
  /// Makes \p Entry (as entry() makes it: a summary store's result, say)
  /// readable by lookup(), before the directory's entries and on the same
  /// terms: it stands while the files it was made from are unchanged.
  void preload(llvm::json::Object Entry);

  /// The key of \p File's entry, compiled with \p CommandLine under the
  /// configuration \p Configuration (its effective options, rendered), and
  /// whatever else the entry depends on (\p Extra).
  std::string key(llvm::StringRef File, llvm::ArrayRef<std::string> CommandLine,
                  llvm::StringRef Configuration,
                  llvm::StringRef Extra = "") const;

  /// The value stored under \p Key if every file it was made from is
  /// unchanged, and \p Usable accepts it (a value it cannot read is a miss);
  /// \p Inputs, if given, gets the files it was made from.
  std::optional<llvm::json::Value> lookup(
      llvm::StringRef Key,
      llvm::function_ref<bool(const llvm::json::Value &)> Usable =
          [](const llvm::json::Value &) { return true; },
      ParseInputs *Inputs = nullptr);

  /// Stores \p Value under \p Key with \p Inputs, the files its parse read
  /// and the hashes of what it read. Best effort: a cache that cannot be
  /// written only costs time; the error says why.
  llvm::Error store(llvm::StringRef Key, llvm::json::Value Value,
                    const ParseInputs &Inputs);

  /// Lookups answered, of them from preloaded entries, and not answered.
  unsigned hits() const { return Hits; }
  unsigned preloadedHits() const { return PreloadedHits; }
  unsigned misses() const { return Misses; }

private:
  TranslationUnitCache(std::string Dir, std::string Kind)
      : Dir(std::move(Dir)), Kind(std::move(Kind)) {}
  std::string entryPath(llvm::StringRef Key) const;
  /// The content hash of the file \p Path, once per run; empty if
  /// unreadable.
  const std::string &fileHash(llvm::StringRef Path);

  /// Empty: in memory only.
  std::string Dir;
  std::string Kind;
  llvm::StringMap<std::string> Hashes;
  /// Entries by key: preloaded, or stored in memory.
  llvm::StringMap<llvm::json::Object> Held;
  unsigned Hits = 0, PreloadedHits = 0, Misses = 0;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_TRANSLATIONUNITCACHE_H
