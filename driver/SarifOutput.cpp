//===- SarifOutput.cpp - SARIF 2.1.0 for code scanning --------------------===//

#include "JsonDocument.h"
#include "Output.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

using nlohmann::json;

/// RFC 3986: everything but unreserved characters and '/' is
/// percent-encoded.
static std::string percentEncode(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' ||
        C == '/')
      Out += C;
    else
      Out += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Out;
}

static std::string fileUri(llvm::StringRef AbsolutePath) {
  std::string Path = llvm::sys::path::convert_to_slash(AbsolutePath);
  if (!llvm::StringRef(Path).starts_with("/"))
    Path = "/" + Path;
  return "file://" + percentEncode(Path);
}

/// Files under the source root are relative to %SRCROOT%, as code scanning
/// expects; others are absolute file URIs.
static json artifactLocation(llvm::StringRef File, const OutputContext &Ctx) {
  std::string Relative = relativePath(File, Ctx.SourceRoot);
  if (Relative != File)
    return {{"uri", percentEncode(llvm::sys::path::convert_to_slash(Relative))},
            {"uriBaseId", "SRCROOT"}};
  return {{"uri", fileUri(File)}};
}

static json physicalLocation(const FileLocation &L, const OutputContext &Ctx) {
  return {{"artifactLocation", artifactLocation(L.File, Ctx)},
          {"region", {{"startLine", L.Line}, {"startColumn", L.Column}}}};
}

void writeSarif(const Report &R, const OutputContext &Ctx,
                llvm::raw_ostream &OS) {
  json Rules = json::array();
  std::map<std::string, size_t> RuleIndex;
  for (const CheckInfo &Info : allChecks()) {
    std::string HelpUri = Ctx.DocsBaseUri + checkDocPath(Info.Id);
    RuleIndex[Info.Id.str()] = Rules.size();
    Rules.push_back(
        {{"id", Info.Id.str()},
         {"shortDescription", {{"text", Info.Summary.str()}}},
         {"fullDescription", {{"text", Info.Rationale.str()}}},
         {"help",
          {{"text", Info.Rationale.str() + " See " + HelpUri},
           {"markdown",
            Info.Rationale.str() + "\n\n[Documentation](" + HelpUri + ")"}}},
         {"helpUri", HelpUri},
         {"defaultConfiguration", {{"level", "warning"}}}});
  }

  json Results = json::array();
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const ResolvedFinding &F = R.Findings[I];
    json Related = json::array();
    for (size_t N = 0; N < F.Notes.size(); ++N)
      Related.push_back(
          {{"id", N},
           {"physicalLocation", physicalLocation(F.Notes[N].Loc, Ctx)},
           {"message", {{"text", F.Notes[N].Message}}}});
    json Result = {
        {"ruleId", F.CheckId},
        {"level", "warning"},
        {"message", {{"text", F.Message}}},
        {"locations",
         json::array({{{"physicalLocation", physicalLocation(F.Loc, Ctx)}}})},
        {"partialFingerprints",
         {{"cudaAsyncLintFingerprint/v1", F.Fingerprint}}}};
    if (auto It = RuleIndex.find(F.CheckId); It != RuleIndex.end())
      Result["ruleIndex"] = It->second;
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);
    if (!F.Fixes.empty()) {
      json Replacements = json::array();
      for (const ResolvedFix &Fix : F.Fixes)
        Replacements.push_back(
            {{"deletedRegion",
              {{"startLine", Fix.Begin.Line},
               {"startColumn", Fix.Begin.Column},
               {"endLine", Fix.End.Line},
               {"endColumn", Fix.End.Column}}},
             {"insertedContent", {{"text", Fix.Replacement}}}});
      Result["fixes"] = json::array(
          {{{"description", {{"text", "Apply the suggested fix"}}},
            {"artifactChanges",
             json::array({{{"artifactLocation",
                            artifactLocation(F.Fixes.front().Begin.File, Ctx)},
                           {"replacements", std::move(Replacements)}}})}}});
    }
    Results.push_back(std::move(Result));
  }

  json Notifications = json::array();
  for (const FailedFile &Failure : R.Failures)
    Notifications.push_back(
        {{"level", "error"},
         {"message",
          {{"text",
            "cannot analyse the file: " + Failure.Reason +
                (Failure.Errors.empty() ? "" : ":\n" + Failure.Errors)}}},
         {"locations",
          json::array({{{"physicalLocation",
                         {{"artifactLocation",
                           artifactLocation(Failure.File, Ctx)}}}}})}});
  for (const FailedFile &Device : R.DeviceCodeErrors)
    Notifications.push_back(
        {{"level", "warning"},
         {"message",
          {{"text",
            std::string(DeviceCodeErrorsMessage) + ":\n" + Device.Errors}}},
         {"locations",
          json::array({{{"physicalLocation",
                         {{"artifactLocation",
                           artifactLocation(Device.File, Ctx)}}}}})}});
  json Invocation = {{"executionSuccessful", R.Failures.empty()}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);

  json Run = {{"tool",
               {{"driver",
                 {{"name", "cuda-async-lint"},
                  {"version", Ctx.ToolVersion},
                  {"informationUri", Ctx.DocsBaseUri + "README.md"},
                  {"rules", std::move(Rules)}}}}},
              {"originalUriBaseIds",
               {{"SRCROOT", {{"uri", fileUri(Ctx.SourceRoot) + "/"}}}}},
              {"invocations", json::array({std::move(Invocation)})},
              {"results", std::move(Results)}};
  json Doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({std::move(Run)})}};
  writeJsonDocument(Doc, OS);
}

} // namespace cuda_async_lint
