//===- JsonOutput.cpp - The project's JSON schema, version 1 --------------===//

#include "Output.h"
#include "support/JsonDocument.h"

namespace cuda_async_lint {

using nlohmann::json;

static json location(const FileLocation &L, const OutputContext &Ctx) {
  return {{"file", relativePath(L.File, Ctx.SourceRoot)},
          {"line", L.Line},
          {"column", L.Column},
          {"offset", L.Offset}};
}

json runtimeJson(const RuntimeEvidence &E, const OutputContext &Ctx) {
  json J = {{"status", runtimeStatusName(E.State)},
            {"summary", E.Summary},
            {"trace", E.Trace},
            {"calls", E.Calls},
            {"bytes", E.Bytes},
            {"hostNs", E.HostNs}};
  if (E.Site.Line)
    J["site"] = location(E.Site, Ctx);
  return J;
}

void writeJson(const Report &R, const OutputContext &Ctx,
               llvm::raw_ostream &OS) {
  json Findings = json::array();
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const ResolvedFinding &F = R.Findings[I];
    json Notes = json::array(), Fixes = json::array();
    for (const ResolvedNote &N : F.Notes)
      Notes.push_back(
          {{"message", N.Message}, {"location", location(N.Loc, Ctx)}});
    for (const ResolvedFix &Fix : F.Fixes)
      Fixes.push_back({{"file", relativePath(Fix.Begin.File, Ctx.SourceRoot)},
                       {"offset", Fix.Begin.Offset},
                       {"length", Fix.End.Offset - Fix.Begin.Offset},
                       {"replacement", Fix.Replacement}});
    Findings.push_back({{"check", F.CheckId},
                        {"severity", severityName(F)},
                        {"message", F.Message},
                        {"location", location(F.Loc, Ctx)},
                        {"notes", std::move(Notes)},
                        {"fixes", std::move(Fixes)},
                        {"fingerprint", F.Fingerprint}});
    if (F.Runtime)
      Findings.back()["runtime"] = runtimeJson(*F.Runtime, Ctx);
  }
  json Errors = json::array();
  for (const FailedFile &Failure : R.Failures)
    Errors.push_back({{"file", relativePath(Failure.File, Ctx.SourceRoot)},
                      {"reason", Failure.Reason},
                      {"message", Failure.Errors}});
  // Each file analysed although clang rejects some of it, with clang's name
  // of each diagnostic tolerated and how often. 'deviceCodeErrors', the
  // name these had when only device code's were tolerated, lists the same
  // files and messages for readers of the earlier reports.
  json Tolerated = json::array();
  json DeviceCode = json::array();
  for (const FailedFile &T : R.ToleratedErrors) {
    std::vector<std::pair<std::string, unsigned>> Counts;
    for (const std::string &Name : T.Diagnostics) {
      auto It =
          llvm::find_if(Counts, [&](const auto &C) { return C.first == Name; });
      if (It == Counts.end())
        Counts.push_back({Name, 1});
      else
        ++It->second;
    }
    json Diagnostics = json::array();
    for (const auto &[Name, Count] : Counts)
      Diagnostics.push_back({{"name", Name}, {"count", Count}});
    std::string Path = relativePath(T.File, Ctx.SourceRoot);
    Tolerated.push_back({{"file", Path},
                         {"message", T.Errors},
                         {"diagnostics", std::move(Diagnostics)}});
    DeviceCode.push_back({{"file", Path}, {"message", T.Errors}});
  }
  json Excluded = json::array();
  for (const std::string &F : R.Excluded)
    Excluded.push_back(relativePath(F, Ctx.SourceRoot));
  json Doc = {
      {"version", 1},
      {"tool", {{"name", "cuda-async-lint"}, {"version", Ctx.ToolVersion}}},
      {"findings", std::move(Findings)},
      {"errors", std::move(Errors)},
      {"toleratedErrors", std::move(Tolerated)},
      {"deviceCodeErrors", std::move(DeviceCode)},
      {"summary",
       {{"files", R.FilesAnalysed},
        {"findings", R.Findings.size()},
        {"failedFiles", R.Failures.size()},
        {"excludedFiles", std::move(Excluded)},
        {"baselined", R.Baselined},
        {"suppressed", R.Suppressed}}}};
  writeJsonDocument(Doc, OS);
}

} // namespace cuda_async_lint
