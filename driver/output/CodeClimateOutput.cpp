//===- CodeClimateOutput.cpp - GitLab Code Quality ------------------------===//
//
// GitLab reads a Code Climate report (artifacts:reports:codequality) and
// shows each issue in the merge request: it needs description, check_name,
// fingerprint, severity and location.path with location.lines.begin.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "support/JsonDocument.h"

namespace cuda_async_lint {

using nlohmann::json;

void writeCodeClimate(const Report &R, const OutputContext &Ctx,
                      llvm::raw_ostream &OS) {
  json Issues = json::array();
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const ResolvedFinding &F = R.Findings[I];
    Issues.push_back(
        {{"type", "issue"},
         {"check_name", F.CheckId},
         {"description", F.Runtime
                             ? F.Message + " (" + runtimeText(*F.Runtime) + ")"
                             : F.Message},
         {"categories", json::array({"Performance", "Bug Risk"})},
         // Every finding costs overlap or is a race: "major", GitLab's
         // default for warnings; an error (WarningsAsErrors) is "critical".
         {"severity", F.IsError ? "critical" : "major"},
         {"fingerprint", F.Fingerprint},
         {"location",
          {{"path", relativePath(F.Loc.File, Ctx.SourceRoot)},
           {"positions",
            {{"begin", {{"line", F.Loc.Line}, {"column", F.Loc.Column}}},
             {"end", {{"line", F.Loc.Line}, {"column", F.Loc.Column}}}}},
           {"lines", {{"begin", F.Loc.Line}}}}}});
  }
  writeJsonDocument(Issues, OS);
}

} // namespace cuda_async_lint
