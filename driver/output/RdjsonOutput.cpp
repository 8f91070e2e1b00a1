//===- RdjsonOutput.cpp - reviewdog's Diagnostic Format -------------------===//
//
// reviewdog -f=rdjson posts each diagnostic as a review comment and each
// suggestion as a committable change (github-pr-review reporter).
// Positions are 1-based lines and 1-based UTF-8 byte columns, as ours.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "support/JsonDocument.h"

namespace cuda_async_lint {

using nlohmann::json;

static json position(const FileLocation &L) {
  return {{"line", L.Line}, {"column", L.Column}};
}

static json location(const FileLocation &L, const OutputContext &Ctx) {
  return {{"path", relativePath(L.File, Ctx.SourceRoot)},
          {"range", {{"start", position(L)}}}};
}

void writeRdjson(const Report &R, const OutputContext &Ctx,
                 llvm::raw_ostream &OS) {
  json Diagnostics = json::array();
  for (const ResolvedFinding &F : R.Findings) {
    json D = {{"message", F.Runtime
                              ? F.Message + " (" + runtimeText(*F.Runtime) + ")"
                              : F.Message},
              {"location", location(F.Loc, Ctx)},
              {"severity", F.IsError ? "ERROR" : "WARNING"},
              {"code", {{"value", F.CheckId}}}};
    if (std::string Url = helpUri(Ctx, F.CheckId); !Url.empty())
      D["code"]["url"] = Url;
    if (!F.Fixes.empty()) {
      json Suggestions = json::array();
      for (const ResolvedFix &Fix : F.Fixes)
        Suggestions.push_back(
            {{"range",
              {{"start", position(Fix.Begin)}, {"end", position(Fix.End)}}},
             {"text", Fix.Replacement}});
      D["suggestions"] = std::move(Suggestions);
    }
    if (!F.Notes.empty()) {
      json Related = json::array();
      for (const ResolvedNote &N : F.Notes)
        Related.push_back(
            {{"message", N.Message}, {"location", location(N.Loc, Ctx)}});
      D["related_locations"] = std::move(Related);
    }
    Diagnostics.push_back(std::move(D));
  }
  // A file that could not be analysed is an error diagnostic on the file.
  for (const FailedFile &Failure : R.Failures)
    Diagnostics.push_back(
        {{"message", "cannot analyse the file: " + Failure.Reason},
         {"location", {{"path", relativePath(Failure.File, Ctx.SourceRoot)}}},
         {"severity", "ERROR"}});
  json Source = {{"name", "cuda-async-lint"}};
  if (std::string Readme = Ctx.Docs.published("README.md"); !Readme.empty())
    Source["url"] = Readme;
  json Doc = {{"source", std::move(Source)},
              {"severity", "WARNING"},
              {"diagnostics", std::move(Diagnostics)}};
  writeJsonDocument(Doc, OS);
}

} // namespace cuda_async_lint
