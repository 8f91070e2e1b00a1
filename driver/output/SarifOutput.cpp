//===- SarifOutput.cpp - SARIF 2.1.0 for code scanning --------------------===//

#include "CheckPages.h"
#include "Output.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "support/FileUri.h"
#include "support/JsonDocument.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>

namespace cuda_async_lint {

using nlohmann::json;

/// Files under the source root are relative to %SRCROOT%, as code scanning
/// expects; others are absolute file URIs.
static json artifactLocation(llvm::StringRef File, const OutputContext &Ctx) {
  std::string Relative = relativePath(File, Ctx.SourceRoot);
  if (Relative != File)
    return {{"uri", percentEncode(llvm::sys::path::convert_to_slash(Relative))},
            {"uriBaseId", "SRCROOT"}};
  return {{"uri", fileUri(File)}};
}

namespace {

/// SARIF columns count UTF-16 code units (the run's columnKind, and what
/// GitHub code scanning assumes); ours count bytes. Each file is read once
/// to convert; a file that cannot be read keeps byte columns (the same for
/// ASCII lines). Each line keeps how far it was counted: the findings come
/// in order, so a line of thousands of findings (generated code) is counted
/// once, not once per finding.
class Utf16Columns {
public:
  explicit Utf16Columns(llvm::vfs::FileSystem &FS) : FS(FS) {}

  unsigned column(const FileLocation &L) {
    auto It = Files.find(L.File);
    if (It == Files.end()) {
      auto Buffer = FS.getBufferForFile(L.File);
      It = Files.emplace(L.File, Buffer ? std::move(*Buffer) : nullptr).first;
    }
    if (!It->second || L.Offset > It->second->getBufferSize() ||
        L.Column == 0 || L.Column - 1 > L.Offset)
      return L.Column;
    llvm::StringRef Text = It->second->getBuffer();
    // The line starts Column - 1 bytes before the offset, in the content
    // the finding was made on; otherwise the file changed since.
    size_t LineStart = L.Offset - (L.Column - 1);
    if (LineStart > 0 && Text[LineStart - 1] != '\n')
      return L.Column;
    Counted &C = Lines.try_emplace({L.File, L.Line}, Counted{LineStart, 0})
                     .first->second;
    if (C.At > L.Offset || C.At < LineStart)
      C = {LineStart, 0};
    size_t I = C.At;
    while (I < L.Offset) {
      unsigned char Ch = Text[I];
      if (Ch == '\n')
        return L.Column;
      size_t Length = Ch < 0x80         ? 1
                      : (Ch >> 5) == 6  ? 2
                      : (Ch >> 4) == 14 ? 3
                      : (Ch >> 3) == 30 ? 4
                                        : 1;
      C.Units += Length == 4 ? 2 : 1;
      I += Length;
    }
    C.At = I;
    return C.Units + 1;
  }

private:
  /// A line's UTF-16 code units before byte offset At.
  struct Counted {
    size_t At;
    unsigned Units;
  };
  llvm::vfs::FileSystem &FS;
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Files;
  std::map<std::pair<std::string, unsigned>, Counted> Lines;
};

json physicalLocation(const FileLocation &L, const OutputContext &Ctx,
                      Utf16Columns &Columns) {
  return {
      {"artifactLocation", artifactLocation(L.File, Ctx)},
      {"region", {{"startLine", L.Line}, {"startColumn", Columns.column(L)}}}};
}

const char *kindTag(CheckKind K) {
  return K == CheckKind::Performance ? "performance" : "correctness";
}

const char *precisionName(CheckPrecision P) {
  return P == CheckPrecision::High ? "high" : "medium";
}

} // namespace

void writeSarif(const Report &R, const OutputContext &Ctx,
                llvm::raw_ostream &OS) {
  json Rules = json::array();
  std::map<std::string, size_t> RuleIndex;
  for (const CheckInfo &Info : allChecks()) {
    std::string HelpUri = helpUri(Ctx, Info.Id);
    // The check's whole page travels with the report, as CodeQL's query
    // help does: code scanning shows it beside each alert, wherever the
    // documentation is (or is not) published.
    std::string Page = checkPageMarkdown(Ctx.Docs, Info.Id);
    if (Page.empty())
      Page = Info.Rationale.str() +
             (HelpUri.empty() ? "" : "\n\n[Documentation](" + HelpUri + ")");
    RuleIndex[Info.Id.str()] = Rules.size();
    json Rule = {{"id", Info.Id.str()},
                 {"name", Info.Name.str()},
                 {"shortDescription", {{"text", Info.Summary.str()}}},
                 {"fullDescription", {{"text", Info.Rationale.str()}}},
                 {"help", {{"text", Page}, {"markdown", Page}}},
                 {"defaultConfiguration", {{"level", "warning"}}},
                 // What GitHub code scanning shows and filters on.
                 {"properties",
                  {{"tags", json::array({"cuda", kindTag(Info.Kind)})},
                   {"precision", precisionName(Info.Precision)},
                   {"problem.severity", "warning"}}}};
    if (!HelpUri.empty())
      Rule["helpUri"] = HelpUri;
    Rules.push_back(std::move(Rule));
  }

  // GitHub code scanning rejects a run of more than 25,000 results: keep the
  // first ones and say how many were left out.
  constexpr size_t MaxResults = 25000;
  size_t Shown = std::min(R.Findings.size(), MaxResults);
  Utf16Columns Columns(*Ctx.Sources);

  // clang-tidy's own diagnostics among the findings (clang-tidy-nolint, an
  // unmatched NOLINTBEGIN) get a rule too, so every result has one.
  for (const ResolvedFinding &F : R.Findings) {
    if (RuleIndex.count(F.CheckId))
      continue;
    RuleIndex[F.CheckId] = Rules.size();
    Rules.push_back(
        {{"id", F.CheckId},
         {"shortDescription", {{"text", "Diagnostic of clang-tidy itself"}}},
         {"helpUri", helpUri(Ctx, F.CheckId)},
         {"defaultConfiguration", {{"level", "error"}}}});
  }

  json Results = json::array();
  for (size_t I = 0; I < Shown; ++I) {
    const ResolvedFinding &F = R.Findings[I];
    json Related = json::array();
    for (size_t N = 0; N < F.Notes.size(); ++N)
      Related.push_back(
          {{"id", N},
           {"physicalLocation", physicalLocation(F.Notes[N].Loc, Ctx, Columns)},
           {"message", {{"text", F.Notes[N].Message}}}});
    json Result = {
        {"ruleId", F.CheckId},
        {"level", severityName(F)},
        {"message", {{"text", F.Message}}},
        {"locations", json::array({{{"physicalLocation",
                                     physicalLocation(F.Loc, Ctx, Columns)}}})},
        {"partialFingerprints",
         {{"cudaAsyncLintFingerprint/v2", F.Fingerprint}}}};
    if (auto It = RuleIndex.find(F.CheckId); It != RuleIndex.end())
      Result["ruleIndex"] = It->second;
    if (F.Runtime) {
      // Where the run measured the call, and what it measured.
      if (F.Runtime->Site.Line)
        Related.push_back({{"id", F.Notes.size()},
                           {"physicalLocation",
                            physicalLocation(F.Runtime->Site, Ctx, Columns)},
                           {"message", {{"text", runtimeText(*F.Runtime)}}}});
      Result["properties"] = {
          {"cudaAsyncLint/runtime", runtimeJson(*F.Runtime, Ctx)}};
    }
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);
    if (!F.Fixes.empty()) {
      json Replacements = json::array();
      for (const ResolvedFix &Fix : F.Fixes)
        Replacements.push_back(
            {{"deletedRegion",
              {{"startLine", Fix.Begin.Line},
               {"startColumn", Columns.column(Fix.Begin)},
               {"endLine", Fix.End.Line},
               {"endColumn", Columns.column(Fix.End)}}},
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
  for (const FailedFile &Tolerated : R.ToleratedErrors)
    Notifications.push_back(
        {{"level", "warning"},
         {"message",
          {{"text",
            std::string(ToleratedErrorsMessage) + ":\n" + Tolerated.Errors}}},
         {"locations",
          json::array({{{"physicalLocation",
                         {{"artifactLocation",
                           artifactLocation(Tolerated.File, Ctx)}}}}})},
         {"properties",
          {{"toleratedDiagnostics", json(Tolerated.Diagnostics)}}}});
  if (Shown < R.Findings.size())
    Notifications.push_back(
        {{"level", "warning"},
         {"message",
          {{"text", std::to_string(R.Findings.size() - Shown) +
                        " results are not included: GitHub code scanning "
                        "accepts at most 25,000 results per run; the JSON "
                        "report lists every finding"}}}});
  json Invocation = {{"executionSuccessful", R.Failures.empty()}};
  // What the run left out, for a reviewer of the code scanning run.
  if (!R.Excluded.empty() || R.Baselined || R.Suppressed) {
    json Excluded = json::array();
    for (const std::string &F : R.Excluded)
      Excluded.push_back(relativePath(F, Ctx.SourceRoot));
    Invocation["properties"] = {{"excludedFiles", std::move(Excluded)},
                                {"baselined", R.Baselined},
                                {"suppressed", R.Suppressed}};
  }
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);

  json Driver = {{"name", "cuda-async-lint"},
                 {"version", Ctx.ToolVersion},
                 {"rules", std::move(Rules)}};
  // The README where the documentation is published, else the project's
  // home page: never a file on the machine that wrote the report.
  if (std::string Readme = Ctx.Docs.published("README.md"); !Readme.empty())
    Driver["informationUri"] = Readme;
  else if (!Ctx.Docs.Homepage.empty())
    Driver["informationUri"] = Ctx.Docs.Homepage;
  json Run = {{"tool", {{"driver", std::move(Driver)}}},
              {"originalUriBaseIds",
               {{"SRCROOT", {{"uri", fileUri(Ctx.SourceRoot) + "/"}}}}},
              {"invocations", json::array({std::move(Invocation)})},
              {"columnKind", "utf16CodeUnits"},
              {"results", std::move(Results)}};
  json Doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({std::move(Run)})}};
  writeJsonDocument(Doc, OS);
}

} // namespace cuda_async_lint
