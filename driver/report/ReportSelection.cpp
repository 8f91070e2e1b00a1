//===- ReportSelection.cpp ------------------------------------------------===//

#include "ReportSelection.h"
#include "GitDiff.h"
#include "llvm/ADT/STLExtras.h"

namespace cuda_async_lint {

llvm::Expected<ReportSelection> ReportSelection::fromOptions(
    std::string SourceRoot, llvm::StringRef LineFilterJson,
    llvm::StringRef DiffRef, llvm::StringRef BaselinePath,
    llvm::StringRef WorkingDirectory) {
  if (!LineFilterJson.empty() && !DiffRef.empty())
    return llvm::createStringError(
        "--line-filter and --diff both choose lines: give one");
  LineFilter Lines;
  if (!LineFilterJson.empty()) {
    llvm::Expected<LineFilter> Parsed = LineFilter::parse(LineFilterJson);
    if (!Parsed)
      return Parsed.takeError();
    Lines = std::move(*Parsed);
  } else if (!DiffRef.empty()) {
    llvm::Expected<LineFilter> Changed =
        changedLinesSince(DiffRef, WorkingDirectory);
    if (!Changed)
      return Changed.takeError();
    Lines = std::move(*Changed);
  }
  std::optional<Baseline> Accepted;
  if (!BaselinePath.empty()) {
    llvm::Expected<Baseline> Loaded = Baseline::load(BaselinePath);
    if (!Loaded)
      return Loaded.takeError();
    Accepted = std::move(*Loaded);
  }
  return ReportSelection(std::move(SourceRoot), std::move(Lines),
                         std::move(Accepted));
}

void ReportSelection::apply(FileResult &R) {
  // What the finding kept of its line served the fingerprints; no report
  // quotes it (the HTML report reads the file): let it go before the
  // report grows.
  for (ResolvedFinding &F : R.Findings) {
    Prints.assign(F);
    std::string().swap(F.LineText);
    std::string().swap(F.PointedCode);
  }
  llvm::erase_if(R.Findings, [&](const ResolvedFinding &F) {
    return !Lines.passes(F.Loc.File, F.Loc.Line);
  });
  if (!Accepted)
    return;
  std::vector<ResolvedFinding> Reported;
  for (ResolvedFinding &F : R.Findings) {
    bool InBaseline = Accepted->contains(F.Fingerprint) ||
                      Accepted->contains(F.FingerprintV1);
    (InBaseline ? Held : Reported).push_back(std::move(F));
  }
  Baselined += R.Findings.size() - Reported.size();
  R.Findings = std::move(Reported);
}

} // namespace cuda_async_lint
