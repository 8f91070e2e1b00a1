//===- SummaryCache.cpp ---------------------------------------------------===//

#include "SummaryCache.h"
#include "AtomicFile.h"
#include "Config.h"
#include "summaries/ProgramSummaries.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

namespace cuda_async_lint {

namespace {

std::string hex(llvm::XXH128_hash_t H) {
  return llvm::formatv("{0:x-16}{1:x-16}", H.high64, H.low64).str();
}

} // namespace

std::string fileContentHash(llvm::StringRef Bytes) {
  return hex(llvm::xxh3_128bits(llvm::arrayRefFromStringRef(Bytes)));
}

llvm::Expected<SummaryCache> SummaryCache::open(llvm::StringRef Dir) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::append(Path, "summaries");
  if (std::error_code EC = llvm::sys::fs::create_directories(Path))
    return llvm::createStringError(EC, "cannot use the cache directory '" +
                                           Dir + "': " + EC.message());
  return SummaryCache(std::string(Path));
}

std::string SummaryCache::key(llvm::StringRef File,
                              llvm::ArrayRef<std::string> CommandLine,
                              llvm::StringRef Configuration) const {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  // Each part with its length: no two keys' parts run together alike.
  auto Part = [&](llvm::StringRef S) { OS << S.size() << ':' << S << ';'; };
  Part(CUDA_ASYNC_LINT_VERSION);
  Part(std::to_string(SummaryVersion));
  Part(File);
  for (const std::string &Arg : CommandLine)
    Part(Arg);
  Part(Configuration);
  return fileContentHash(Text);
}

std::string SummaryCache::entryPath(llvm::StringRef Key) const {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Key.take_front(2), Key + ".json");
  return std::string(Path);
}

const std::string &SummaryCache::fileHash(llvm::StringRef Path) {
  auto [It, New] = Hashes.try_emplace(Path);
  if (New)
    if (auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                                  /*RequiresNullTerminator=*/
                                                  false))
      It->second = fileContentHash((*Buffer)->getBuffer());
  return It->second;
}

std::optional<llvm::json::Object> SummaryCache::lookup(llvm::StringRef Key) {
  auto Miss = [&]() -> std::optional<llvm::json::Object> {
    ++Misses;
    return std::nullopt;
  };
  auto Buffer = llvm::MemoryBuffer::getFile(entryPath(Key), /*IsText=*/true);
  if (!Buffer)
    return Miss();
  llvm::Expected<llvm::json::Value> Entry =
      llvm::json::parse((*Buffer)->getBuffer());
  if (!Entry) {
    llvm::consumeError(Entry.takeError());
    return Miss();
  }
  llvm::json::Object *Root = Entry->getAsObject();
  const llvm::json::Array *Inputs = Root ? Root->getArray("inputs") : nullptr;
  llvm::json::Object *Summary = Root ? Root->getObject("summary") : nullptr;
  if (!Inputs || !Summary || Root->getString("key") != Key)
    return Miss();
  for (const llvm::json::Value &Input : *Inputs) {
    const llvm::json::Object *I = Input.getAsObject();
    std::optional<llvm::StringRef> Path =
        I ? I->getString("path") : std::nullopt;
    std::optional<llvm::StringRef> Hash =
        I ? I->getString("hash") : std::nullopt;
    if (!Path || !Hash || Hash->empty() || fileHash(*Path) != *Hash)
      return Miss();
  }
  ++Hits;
  return std::move(*Summary);
}

llvm::Error SummaryCache::store(
    llvm::StringRef Key, const llvm::json::Object &Summary,
    llvm::ArrayRef<std::pair<std::string, std::string>> Inputs) {
  llvm::json::Array Hashed;
  for (const auto &[Path, Hash] : Inputs) {
    // A file whose bytes the parse did not keep: no entry.
    if (Hash.empty())
      return llvm::Error::success();
    Hashed.push_back(llvm::json::Object{{"path", Path}, {"hash", Hash}});
  }
  std::string Path = entryPath(Key);
  if (std::error_code EC =
          llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)))
    return llvm::createStringError(EC, "cannot write the cache entry '" + Path +
                                           "': " + EC.message());
  llvm::json::Object Entry{{"key", Key},
                           {"inputs", std::move(Hashed)},
                           {"summary", llvm::json::Object(Summary)}};
  return writeFileAtomically(
      Path, llvm::formatv("{0}", llvm::json::Value(std::move(Entry))).str());
}

} // namespace cuda_async_lint
