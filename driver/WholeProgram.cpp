//===- WholeProgram.cpp ---------------------------------------------------===//

#include "WholeProgram.h"
#include "AtomicFile.h"
#include "llvm/Support/FormatVariadic.h"

namespace cuda_async_lint {

llvm::Expected<ProgramSummaries::ShardOf> parseShard(llvm::StringRef Text) {
  auto [I, N] = Text.split('/');
  unsigned Index = 0, Count = 0;
  if (I.getAsInteger(10, Index) || N.getAsInteger(10, Count) || Count == 0 ||
      Index == 0 || Index > Count)
    return llvm::createStringError(
        "--shard='" + Text +
        "' is not 'i/n' with 1 <= i <= n (shard i of n, e.g. --shard=1/4)");
  return ProgramSummaries::ShardOf{Index, Count};
}

std::vector<std::string> filesOfShard(const std::vector<std::string> &Files,
                                      ProgramSummaries::ShardOf S) {
  std::vector<std::string> Out;
  for (size_t I = S.Index - 1; I < Files.size(); I += S.Count)
    Out.push_back(Files[I]);
  return Out;
}

std::shared_ptr<ProgramSummaries> summarizeProgram(
    const std::vector<std::string> &Files, bool EveryCaller,
    const AnalysisOptions &Options, TranslationUnitCache *Cache,
    llvm::function_ref<void(const FailedFile &)> OnFailure,
    llvm::function_ref<void(llvm::StringRef, size_t, size_t)> OnSummarized) {
  std::vector<std::optional<llvm::json::Object>> Units(Files.size());
  std::vector<std::optional<std::string>> Keys(Files.size());
  std::vector<std::string> ToSummarize;
  std::vector<size_t> Where;
  for (size_t I = 0; I < Files.size(); ++I) {
    if (Cache)
      Keys[I] = cacheKeyOf(Files[I], Options, *Cache);
    if (Keys[I])
      if (std::optional<llvm::json::Value> Cached =
              Cache->lookup(*Keys[I], [](const llvm::json::Value &V) {
                return V.getAsObject() != nullptr;
              }))
        if (llvm::json::Object *Unit = Cached->getAsObject())
          Units[I] = std::move(*Unit);
    if (!Units[I]) {
      ToSummarize.push_back(Files[I]);
      Where.push_back(I);
    }
  }
  size_t Ended = 0;
  summarizeFiles(ToSummarize, Options, [&](size_t J, FileResult R) {
    size_t I = Where[J];
    OnSummarized(Files[I], ++Ended, ToSummarize.size());
    if (R.Failure)
      return OnFailure(*R.Failure);
    llvm::Expected<llvm::json::Value> Summary = llvm::json::parse(R.Summary);
    if (!Summary || !Summary->getAsObject()) {
      if (!Summary)
        llvm::consumeError(Summary.takeError());
      return OnFailure(
          FailedFile{Files[I], "", "its worker's summary is damaged"});
    }
    if (Cache && Keys[I])
      // Best effort: a cache that cannot be written costs only time.
      llvm::consumeError(Cache->store(*Keys[I], *Summary, R.Inputs));
    Units[I] = std::move(*Summary->getAsObject());
  });
  std::vector<llvm::json::Object> Summaries;
  for (std::optional<llvm::json::Object> &U : Units)
    if (U)
      Summaries.push_back(std::move(*U));
  llvm::Expected<std::shared_ptr<ProgramSummaries>> Program =
      ProgramSummaries::fromUnits(std::move(Summaries), EveryCaller);
  if (Program)
    return std::move(*Program);
  // Summaries this very run made do not fail to read; if they did, the
  // program is analysed without them.
  OnFailure(FailedFile{"", "", llvm::toString(Program.takeError())});
  return nullptr;
}

llvm::Error writeSummaryStore(const ProgramSummaries &Program,
                              llvm::StringRef Path) {
  return writeFileAtomically(Path,
                             llvm::formatv("{0:2}\n", Program.toJSON()).str());
}

llvm::Expected<std::shared_ptr<ProgramSummaries>>
mergeSummaryStores(llvm::ArrayRef<std::string> Paths) {
  std::vector<std::shared_ptr<const ProgramSummaries>> Parts;
  for (const std::string &Path : Paths) {
    llvm::Expected<std::shared_ptr<ProgramSummaries>> Part =
        ProgramSummaries::readFile(Path);
    if (!Part)
      return Part.takeError();
    Parts.push_back(std::move(*Part));
  }
  return ProgramSummaries::merge(Parts);
}

} // namespace cuda_async_lint
