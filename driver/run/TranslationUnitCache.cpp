//===- TranslationUnitCache.cpp -------------------------------------------===//

#include "TranslationUnitCache.h"
#include "Config.h"
#include "summaries/ProgramSummaries.h"
#include "support/AtomicFile.h"
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

/// This build of the tool: the hash of its executable, so that entries of
/// another build (another commit of the same version) are never trusted.
const std::string &toolIdentity() {
  static const std::string Identity = [] {
    std::string Exe = llvm::sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&toolIdentity));
    auto Buffer = llvm::MemoryBuffer::getFile(Exe, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    // Unreadable: the version alone, as before a build identity existed.
    return Buffer ? fileContentHash((*Buffer)->getBuffer()) : std::string();
  }();
  return Identity;
}

} // namespace

std::string fileContentHash(llvm::StringRef Bytes) {
  return hex(llvm::xxh3_128bits(llvm::arrayRefFromStringRef(Bytes)));
}

llvm::Expected<TranslationUnitCache>
TranslationUnitCache::open(llvm::StringRef Dir, llvm::StringRef Kind) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::append(Path, Kind);
  if (std::error_code EC = llvm::sys::fs::create_directories(Path))
    return llvm::createStringError(EC, "cannot use the cache directory '" +
                                           Dir + "': " + EC.message());
  return TranslationUnitCache(std::string(Path), std::string(Kind));
}

std::string TranslationUnitCache::key(llvm::StringRef File,
                                      llvm::ArrayRef<std::string> CommandLine,
                                      llvm::StringRef Configuration,
                                      llvm::StringRef Extra) const {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  // Each part with its length: no two keys' parts run together alike.
  auto Part = [&](llvm::StringRef S) { OS << S.size() << ':' << S << ';'; };
  Part(CUDA_ASYNC_LINT_VERSION);
  Part(toolIdentity());
  Part(Kind);
  Part(std::to_string(SummaryVersion));
  Part(File);
  for (const std::string &Arg : CommandLine)
    Part(Arg);
  Part(Configuration);
  Part(Extra);
  return fileContentHash(Text);
}

std::string TranslationUnitCache::entryPath(llvm::StringRef Key) const {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Key.take_front(2), Key + ".json");
  return std::string(Path);
}

const std::string &TranslationUnitCache::fileHash(llvm::StringRef Path) {
  auto [It, New] = Hashes.try_emplace(Path);
  if (New)
    if (auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                                  /*RequiresNullTerminator=*/
                                                  false))
      It->second = fileContentHash((*Buffer)->getBuffer());
  return It->second;
}

std::optional<llvm::json::Value> TranslationUnitCache::lookup(
    llvm::StringRef Key,
    llvm::function_ref<bool(const llvm::json::Value &)> Usable,
    ParseInputs *Kept) {
  auto Miss = [&]() -> std::optional<llvm::json::Value> {
    ++Misses;
    return std::nullopt;
  };
  std::optional<llvm::json::Value> Entry;
  bool Preloaded = false;
  if (auto It = Held.find(Key); It != Held.end()) {
    Entry = llvm::json::Object(It->second);
    Preloaded = true;
  } else if (!Dir.empty()) {
    auto Buffer = llvm::MemoryBuffer::getFile(entryPath(Key), /*IsText=*/true);
    if (!Buffer)
      return Miss();
    llvm::Expected<llvm::json::Value> Parsed =
        llvm::json::parse((*Buffer)->getBuffer());
    if (!Parsed) {
      llvm::consumeError(Parsed.takeError());
      return Miss();
    }
    Entry = std::move(*Parsed);
  } else {
    return Miss();
  }
  llvm::json::Object *Root = Entry->getAsObject();
  const llvm::json::Array *Inputs = Root ? Root->getArray("inputs") : nullptr;
  llvm::json::Value *Value = Root ? Root->get("value") : nullptr;
  if (!Inputs || !Value || Root->getString("key") != Key)
    return Miss();
  // Each input is [path, hash]: a pair, not an object, whose hash table a
  // store of thousands of units would hold hundreds of thousands of.
  auto Pair = [](const llvm::json::Value &Input)
      -> std::optional<std::pair<llvm::StringRef, llvm::StringRef>> {
    const llvm::json::Array *I = Input.getAsArray();
    if (!I || I->size() != 2)
      return std::nullopt;
    std::optional<llvm::StringRef> Path = (*I)[0].getAsString();
    std::optional<llvm::StringRef> Hash = (*I)[1].getAsString();
    if (!Path || !Hash)
      return std::nullopt;
    return std::make_pair(*Path, *Hash);
  };
  for (const llvm::json::Value &Input : *Inputs) {
    auto I = Pair(Input);
    if (!I || I->second.empty() || fileHash(I->first) != I->second)
      return Miss();
  }
  if (!Usable(*Value))
    return Miss();
  if (Kept) {
    Kept->clear();
    for (const llvm::json::Value &Input : *Inputs) {
      auto I = Pair(Input);
      Kept->push_back({I->first.str(), I->second.str()});
    }
  }
  ++Hits;
  PreloadedHits += Preloaded;
  return std::move(*Value);
}

std::optional<llvm::json::Object>
TranslationUnitCache::entry(llvm::StringRef Key, llvm::json::Value Value,
                            const ParseInputs &Inputs) {
  llvm::json::Array Hashed;
  Hashed.reserve(Inputs.size());
  for (const auto &[Path, Hash] : Inputs) {
    // A file whose bytes the parse did not keep: no entry.
    if (Hash.empty())
      return std::nullopt;
    Hashed.push_back(llvm::json::Array{Path, Hash});
  }
  return llvm::json::Object{{"key", Key.str()},
                            {"inputs", std::move(Hashed)},
                            {"value", std::move(Value)}};
}

void TranslationUnitCache::preload(llvm::json::Object Entry) {
  if (std::optional<llvm::StringRef> Key = Entry.getString("key"))
    Held.try_emplace(*Key, std::move(Entry));
}

llvm::Error TranslationUnitCache::store(llvm::StringRef Key,
                                        llvm::json::Value Value,
                                        const ParseInputs &Inputs) {
  std::optional<llvm::json::Object> Entry =
      entry(Key, std::move(Value), Inputs);
  if (!Entry)
    return llvm::Error::success();
  if (Dir.empty()) {
    Held.insert_or_assign(Key, std::move(*Entry));
    return llvm::Error::success();
  }
  std::string Path = entryPath(Key);
  if (std::error_code EC =
          llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)))
    return llvm::createStringError(EC, "cannot write the cache entry '" + Path +
                                           "': " + EC.message());
  return writeFileAtomically(
      Path, llvm::formatv("{0}", llvm::json::Value(std::move(*Entry))).str());
}

} // namespace cuda_async_lint
