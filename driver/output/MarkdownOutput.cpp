//===- MarkdownOutput.cpp - A review comment or a CI job summary ----------===//
//
// Sized for a pull-request comment (GitHub caps one at 65,536 characters)
// and $GITHUB_STEP_SUMMARY: a summary by check and by file, then one section
// per finding, folded in <details> when there are many.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "report/FixDiff.h"
#include "llvm/ADT/StringMap.h"
#include <map>

namespace cuda_async_lint {

namespace {

/// Findings beyond this many are folded; sections stop before this size.
constexpr size_t UnfoldedFindings = 10;
constexpr size_t MaxBytes = 60000;
/// The most findings the list of those failing the gate names.
constexpr size_t MaxListedGateFailures = 30;

/// Text that Markdown must not read as markup (a message quoting `a[i]`,
/// `*p` or `<T>`).
std::string escape(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '<')
      Out += "&lt;";
    else if (C == '>')
      Out += "&gt;";
    else if (C == '&')
      Out += "&amp;";
    else if (llvm::StringRef("\\`*_[]|#").contains(C))
      Out += std::string("\\") + C;
    else
      Out += C;
  }
  return Out;
}

/// A code span that holds any text (backticks included).
std::string code(llvm::StringRef Text) {
  std::string Fence = "`";
  while (Text.contains(Fence))
    Fence += "`";
  bool Pad = Text.starts_with("`") || Text.ends_with("`");
  return Fence + (Pad ? " " : "") + Text.str() + (Pad ? " " : "") + Fence;
}

/// '[id](url)', or the id alone where nothing is published to link.
std::string link(llvm::StringRef Text, llvm::StringRef Url) {
  return Url.empty() ? code(Text) : "[" + Text.str() + "](" + Url.str() + ")";
}

std::string section(size_t Index, const ResolvedFinding &F,
                    const OutputContext &Ctx) {
  std::string S = "#### " + std::to_string(Index + 1) + ". " +
                  code(locationText(F.Loc, Ctx)) + " " + F.CheckId + "\n\n" +
                  escape(F.Message) + "\n\n";
  for (const ResolvedNote &N : F.Notes)
    S +=
        "- " + code(locationText(N.Loc, Ctx)) + ": " + escape(N.Message) + "\n";
  if (!F.Notes.empty())
    S += "\n";
  if (F.Runtime)
    S += "**" + escape(runtimeText(*F.Runtime)) + "**\n\n";
  std::optional<std::string> Diff;
  if (!F.Fixes.empty())
    Diff = fixAsUnifiedDiff(
        F, relativePath(F.Fixes.front().Begin.File, Ctx.SourceRoot),
        *Ctx.Sources);
  if (Diff) {
    std::string Fence = "```";
    while (llvm::StringRef(*Diff).contains(Fence))
      Fence += "`";
    S += "Suggested fix:\n\n" + Fence + "diff\n" + *Diff + Fence + "\n\n";
  }
  if (std::string Url = helpUri(Ctx, F.CheckId); !Url.empty())
    S += "[" + F.CheckId + "](" + Url +
         "): why it matters and how to fix it.\n\n";
  else if (findCheck(F.CheckId))
    S += "Why it matters and how to fix it: " + code(checkDocPath(F.CheckId)) +
         " in cuda-async-lint's documentation.\n\n";
  return S;
}

} // namespace

void writeMarkdown(const Report &R, const OutputContext &Ctx,
                   llvm::raw_ostream &OS) {
  std::string Out;
  Out += "## cuda-async-lint: " + reportHeadline(R) + "\n\n";

  if (!R.Failures.empty()) {
    Out += "**" + countOf(R.Failures.size(), "file was", "files were") +
           " not analysed:**\n\n";
    for (const FailedFile &F : R.Failures)
      Out += "- " + code(relativePath(F.File, Ctx.SourceRoot)) + ": " +
             escape(F.Reason) + "\n";
    Out += "\n";
  }

  // What fails the gate, named at the top, where the findings below do not
  // all fail it (WarningsAsErrors) or are folded away.
  size_t Failing = llvm::count_if(
      R.Findings, [](const ResolvedFinding &F) { return F.FailsGate; });
  if (Failing &&
      (Failing != R.Findings.size() || R.Findings.size() > UnfoldedFindings)) {
    Out += "**" + countOf(Failing, "finding fails", "findings fail") +
           " the gate:**\n\n";
    size_t Listed = 0;
    for (const ResolvedFinding &F : R.Findings) {
      if (!F.FailsGate)
        continue;
      if (Listed++ == MaxListedGateFailures) {
        Out += "- ... and " + std::to_string(Failing - MaxListedGateFailures) +
               " more\n";
        break;
      }
      Out += "- " + code(locationText(F.Loc, Ctx)) + " " + F.CheckId + ": " +
             escape(F.Message) + "\n";
    }
    Out += "\n";
  }

  if (std::string Left = notReportedText(R); !Left.empty())
    Out += Left + "\n\n";
  if (!R.Excluded.empty()) {
    bool Fold = R.Excluded.size() > UnfoldedFindings;
    Out += Fold ? "<details><summary>" +
                      countOf(R.Excluded.size(), "file was", "files were") +
                      " excluded</summary>\n\n"
                : "**" + countOf(R.Excluded.size(), "file was", "files were") +
                      " excluded:**\n\n";
    for (const std::string &F : R.Excluded)
      Out += "- " + code(relativePath(F, Ctx.SourceRoot)) + "\n";
    Out += Fold ? "\n</details>\n\n" : "\n";
  }

  if (!R.Findings.empty()) {
    auto [ByCheck, ByFile] = countFindings(R, Ctx);
    Out += "| check | findings | finds |\n| --- | ---: | --- |\n";
    for (const CheckInfo &Info : allChecks())
      if (auto It = ByCheck.find(Info.Id.str()); It != ByCheck.end())
        Out += "| " + link(Info.Id, helpUri(Ctx, Info.Id)) + " | " +
               std::to_string(It->second) + " | " + escape(Info.Summary) +
               " |\n";
    Out += "\n";
    bool FoldFiles = ByFile.size() > UnfoldedFindings;
    if (FoldFiles)
      Out += "<details><summary>Findings by file (" +
             std::to_string(ByFile.size()) + " files)</summary>\n\n";
    Out += "| file | findings |\n| --- | ---: |\n";
    for (const auto &[File, N] : ByFile)
      Out += "| " + code(File) + " | " + std::to_string(N) + " |\n";
    Out += FoldFiles ? "\n</details>\n\n" : "\n";

    bool Fold = R.Findings.size() > UnfoldedFindings;
    Out += Fold ? "<details><summary>All " + std::to_string(R.Findings.size()) +
                      " findings</summary>\n\n"
                : "### Findings\n\n";
    size_t Shown = 0;
    for (; Shown < R.Findings.size(); ++Shown) {
      std::string S = section(Shown, R.Findings[Shown], Ctx);
      if (Out.size() + S.size() > MaxBytes)
        break;
      Out += S;
    }
    if (Shown < R.Findings.size())
      Out +=
          "*" +
          countOf(R.Findings.size() - Shown, "more finding", "more findings") +
          " not shown, to keep this report within a review comment's "
          "size; the JSON and SARIF reports list every finding.*\n\n";
    if (Fold)
      Out += "</details>\n";
  }
  OS << Out;
}

} // namespace cuda_async_lint
