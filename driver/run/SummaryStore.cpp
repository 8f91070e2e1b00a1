//===- SummaryStore.cpp ---------------------------------------------------===//

#include "SummaryStore.h"
#include "support/AtomicFile.h"
#include "support/UnnamedFiles.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <optional>
#include <unistd.h>

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

namespace {

/// A file with no name, for a merge's results until the store is written.
class ResultsFile {
public:
  llvm::Error open() {
    llvm::Expected<int> File =
        createUnnamedFile("cuda-async-lint-results", "json");
    if (!File)
      return llvm::createStringError("cannot make a temporary file for the "
                                     "merge: " +
                                     llvm::toString(File.takeError()));
    FD = *File;
    Out.emplace(FD, /*shouldClose=*/false);
    return llvm::Error::success();
  }
  ~ResultsFile() {
    Out.reset();
    if (FD >= 0)
      ::close(FD);
  }
  llvm::raw_fd_ostream &stream() { return *Out; }
  /// Copies what was written to \p OS.
  llvm::Error copyTo(llvm::raw_ostream &OS) {
    Out->flush();
    if (Out->has_error()) {
      std::string Reason = Out->error().message();
      Out->clear_error();
      return llvm::createStringError("cannot keep the merge's results: " +
                                     Reason);
    }
    if (llvm::Error E = readFileSlices(
            FD, 0, UINT64_MAX, [&](llvm::StringRef Chunk) { OS << Chunk; }))
      return llvm::createStringError("cannot read the merge's results back: " +
                                     llvm::toString(std::move(E)));
    return llvm::Error::success();
  }

private:
  int FD = -1;
  std::optional<llvm::raw_fd_ostream> Out;
};

} // namespace

llvm::Expected<MergedStores>
mergeSummaryStores(llvm::ArrayRef<std::string> Paths, llvm::StringRef Out) {
  MergedStores Merged;
  ResultsFile Results;
  if (llvm::Error E = Results.open())
    return std::move(E);
  std::vector<ProgramSummaries::PartScope> Scopes;
  // A unit, or a result, two stores hold: the first store's (overlapping
  // shards, or one store twice).
  llvm::StringSet<> Keys, Files;
  for (const std::string &Path : Paths) {
    llvm::Expected<SummaryStore> Part =
        readSummaryStore(Path, /*Documents=*/false);
    if (!Part)
      return Part.takeError();
    Scopes.push_back(
        {Part->Program->holdsEveryCaller(), Part->Program->shard()});
    for (const std::string &File : Part->Program->files())
      Merged.Units += Files.insert(File).second;
    for (llvm::json::Object &R : Part->Results)
      if (Keys.insert(*R.getString("key")).second)
        Results.stream() << (Merged.Results++ ? ",\n" : "")
                         << llvm::formatv("{0}",
                                          llvm::json::Value(std::move(R)));
  }
  Merged.EveryCaller = ProgramSummaries::holdEveryCaller(Scopes);
  // The store's document, streamed: the units of one store at a time.
  llvm::Error Written = streamFileAtomically(Out, [&](llvm::raw_ostream &OS) {
    llvm::Error Failed = llvm::Error::success();
    llvm::json::OStream J(OS, 2);
    J.object([&] {
      J.attribute("format", SummaryFormat);
      J.attribute("version", int64_t(SummaryVersion));
      J.attribute("everyCaller", Merged.EveryCaller);
      J.attributeArray("units", [&] {
        llvm::StringSet<> Written;
        for (const std::string &Path : Paths) {
          llvm::Expected<llvm::json::Value> Doc =
              ProgramSummaries::readDocument(Path);
          if (!Doc) {
            Failed = Doc.takeError();
            return;
          }
          if (llvm::json::Object *Root = Doc->getAsObject())
            if (llvm::json::Array *Units = Root->getArray("units"))
              for (const llvm::json::Value &U : *Units)
                if (const llvm::json::Object *O = U.getAsObject())
                  if (Written.insert(O->getString("file").value_or("")).second)
                    J.value(U);
        }
      });
      if (Merged.Results && !Failed) {
        J.attributeBegin("results");
        J.rawValue([&](llvm::raw_ostream &Raw) {
          Raw << "[";
          Failed = Results.copyTo(Raw);
          Raw << "]";
        });
        J.attributeEnd();
      }
    });
    return Failed;
  });
  if (Written)
    return std::move(Written);
  return Merged;
}

} // namespace cuda_async_lint
