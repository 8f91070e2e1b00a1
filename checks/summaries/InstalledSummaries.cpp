//===- InstalledSummaries.cpp - The summaries checks draw on --------------===//

#include "ProgramSummaries.h"
#include <map>
#include <mutex>
#include <set>

namespace cuda_async_lint {

namespace {

struct Installed {
  std::mutex Lock;
  std::shared_ptr<const ProgramSummaries> Program;
  bool FromDriver = false;
  /// The stores SummaryStore options named, read once each.
  std::map<std::string, std::shared_ptr<const ProgramSummaries>> Read;
  /// The stores that could not be read: said once each.
  std::set<std::string> Failed;
};

Installed &installed() {
  static Installed I;
  return I;
}

} // namespace

void setProgramSummaries(std::shared_ptr<const ProgramSummaries> Summaries,
                         bool FromDriver) {
  Installed &I = installed();
  std::lock_guard<std::mutex> Guard(I.Lock);
  if (I.FromDriver && !FromDriver)
    return;
  I.Program = std::move(Summaries);
  I.FromDriver = FromDriver;
}

std::shared_ptr<const ProgramSummaries> programSummaries() {
  Installed &I = installed();
  std::lock_guard<std::mutex> Guard(I.Lock);
  return I.Program;
}

WithoutProgramSummaries::WithoutProgramSummaries() {
  Installed &I = installed();
  std::lock_guard<std::mutex> Guard(I.Lock);
  Saved = std::move(I.Program);
  I.Program = nullptr;
  SavedFromDriver = I.FromDriver;
}

WithoutProgramSummaries::~WithoutProgramSummaries() {
  Installed &I = installed();
  std::lock_guard<std::mutex> Guard(I.Lock);
  I.Program = std::move(Saved);
  I.FromDriver = SavedFromDriver;
}

llvm::Error useSummaryStore(llvm::StringRef Path) {
  Installed &I = installed();
  std::shared_ptr<const ProgramSummaries> Program;
  {
    std::lock_guard<std::mutex> Guard(I.Lock);
    if (I.FromDriver)
      return llvm::Error::success();
    if (auto It = I.Read.find(Path.str()); It != I.Read.end())
      Program = It->second;
    else if (I.Failed.count(Path.str()))
      return llvm::Error::success();
  }
  auto Fail = [&](llvm::Error E) {
    std::lock_guard<std::mutex> Guard(I.Lock);
    I.Failed.insert(Path.str());
    return E;
  };
  if (!Program) {
    llvm::Expected<std::shared_ptr<ProgramSummaries>> Parsed =
        ProgramSummaries::readFile(Path);
    if (!Parsed)
      return Fail(Parsed.takeError());
    Program = std::move(*Parsed);
    std::lock_guard<std::mutex> Guard(I.Lock);
    I.Read[Path.str()] = Program;
  }
  setProgramSummaries(std::move(Program), /*FromDriver=*/false);
  return llvm::Error::success();
}

} // namespace cuda_async_lint
