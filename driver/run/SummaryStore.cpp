//===- SummaryStore.cpp ---------------------------------------------------===//

#include "SummaryStore.h"
#include "support/AtomicFile.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

namespace cuda_async_lint {

llvm::Expected<SummaryStore> readSummaryStore(llvm::StringRef Path,
                                              bool Documents) {
  llvm::Expected<llvm::json::Value> Doc = ProgramSummaries::readDocument(Path);
  if (!Doc)
    return Doc.takeError();
  SummaryStore Store;
  // The results first: the summaries take the document.
  if (llvm::json::Object *Root = Doc->getAsObject())
    if (llvm::json::Array *Results = Root->getArray("results")) {
      for (llvm::json::Value &R : *Results) {
        llvm::json::Object *Entry = R.getAsObject();
        if (!Entry || !Entry->getString("key"))
          return llvm::createStringError(
              Path + ": a result is not an entry with a key");
        Store.Results.push_back(std::move(*Entry));
      }
      Root->erase("results");
    }
  llvm::Expected<std::shared_ptr<ProgramSummaries>> Program =
      ProgramSummaries::fromJSON(std::move(*Doc), Path, Documents);
  if (!Program)
    return Program.takeError();
  Store.Program = std::move(*Program);
  return Store;
}

llvm::Error writeSummaryStore(SummaryStore Store, llvm::StringRef Path) {
  llvm::json::Value Doc = Store.Program->takeJSON();
  if (!Store.Results.empty()) {
    llvm::json::Array Results;
    // Reserved: a json::Value is copied, not moved, where a vector grows.
    Results.reserve(Store.Results.size());
    for (llvm::json::Object &R : Store.Results)
      Results.push_back(std::move(R));
    Doc.getAsObject()->try_emplace("results", std::move(Results));
  }
  return writeFileAtomically(Path, [&](llvm::raw_ostream &OS) {
    OS << llvm::formatv("{0:2}\n", Doc);
  });
}

llvm::Expected<SummaryStore>
mergeSummaryStores(llvm::ArrayRef<std::string> Paths) {
  std::vector<std::shared_ptr<ProgramSummaries>> Parts;
  SummaryStore Merged;
  llvm::StringSet<> Keys;
  for (const std::string &Path : Paths) {
    llvm::Expected<SummaryStore> Part = readSummaryStore(Path);
    if (!Part)
      return Part.takeError();
    Parts.push_back(std::move(Part->Program));
    for (llvm::json::Object &R : Part->Results)
      if (Keys.insert(*R.getString("key")).second)
        Merged.Results.push_back(std::move(R));
  }
  // The parts are this merge's: their units move into the whole.
  llvm::Expected<std::shared_ptr<ProgramSummaries>> Program =
      ProgramSummaries::merge(std::move(Parts));
  if (!Program)
    return Program.takeError();
  Merged.Program = std::move(*Program);
  return Merged;
}

} // namespace cuda_async_lint
