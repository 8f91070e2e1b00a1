//===- HtmlOutput.cpp - A self-contained report for reviewers -------------===//
//
// One HTML file with everything inlined (HtmlAssets.h): a summary by check
// and by file, filters, and each finding with the source lines around it
// (the finding's line and its notes' lines highlighted), its fix as a diff,
// the check's rationale and what the runtime verifier measured the bug class
// to cost on a real GPU (MeasuredCost.h).
//
//===----------------------------------------------------------------------===//

#include "CheckPages.h"
#include "HtmlAssets.h"
#include "Output.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "report/FixDiff.h"
#include "report/LineText.h"
#include "report/MeasuredCost.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include <map>
#include <memory>
#include <set>

namespace cuda_async_lint {

namespace {

/// Lines shown above and below a finding, and how close a note must be to
/// share its snippet.
constexpr unsigned Context = 3;
constexpr unsigned NearbyNote = 12;

/// The analysed files' lines, read once each. The report quotes them as they
/// are when it is written, as clang-tidy's text output does.
class SourceLines {
public:
  explicit SourceLines(llvm::vfs::FileSystem &FS) : FS(FS) {}

  /// The whole of \p File, if it can be read.
  std::optional<llvm::StringRef> content(const std::string &File) {
    const Loaded &L = load(File);
    if (!L.Buffer)
      return std::nullopt;
    return L.Buffer->getBuffer();
  }

  /// Line \p N (1-based) of \p File, if it can be read.
  std::optional<llvm::StringRef> line(const std::string &File, unsigned N) {
    const Loaded &L = load(File);
    if (N == 0 || N > L.Lines.size())
      return std::nullopt;
    return L.Lines[N - 1];
  }

private:
  struct Loaded {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    llvm::SmallVector<llvm::StringRef, 0> Lines;
  };

  const Loaded &load(const std::string &File) {
    auto [It, Inserted] = Files.try_emplace(File);
    if (Inserted) {
      auto Buffer = FS.getBufferForFile(File, /*FileSize=*/-1,
                                        /*RequiresNullTerminator=*/false,
                                        /*IsVolatile=*/false, /*IsText=*/true);
      if (Buffer) {
        llvm::StringRef Text = (*Buffer)->getBuffer();
        Text.split(It->second.Lines, '\n');
        for (llvm::StringRef &L : It->second.Lines)
          L = L.rtrim('\r');
        It->second.Buffer = std::move(*Buffer);
      }
    }
    return It->second;
  }

  llvm::vfs::FileSystem &FS;
  std::map<std::string, Loaded> Files;
};

/// What a snippet shows of a line longer than MaxLineText (generated or
/// minified code): a reviewer reads the finding's code and what follows it,
/// not kilobytes of a line it shares with thousands of others.
constexpr size_t ShownOfLongLine = 256;

/// A line of a snippet, escaped: a line longer than MaxLineText shows
/// ShownOfLongLine characters from \p Column, cut marks where it is cut, so
/// that N findings on one long line do not print it N times.
std::string shownLine(llvm::StringRef Text, unsigned Column) {
  if (Text.size() <= MaxLineText)
    return escapeHtml(Text);
  unsigned From = 1;
  llvm::StringRef Kept = lineFromColumn(Text, Column, ShownOfLongLine, From);
  bool CutAtEnd = From - 1 + Kept.size() < Text.size();
  return (From > 1 ? "\u2026" : "") + escapeHtml(Kept) +
         (CutAtEnd ? "\u2026" : "");
}

/// Lines [First, Last] of \p File, the finding's line (at \p HitColumn) and
/// the notes' lines marked.
std::string snippet(const std::string &File, unsigned First, unsigned Last,
                    unsigned Hit, const std::set<unsigned> &NoteLines,
                    SourceLines &Sources, const OutputContext &Ctx,
                    unsigned HitColumn = 1) {
  std::string Body;
  for (unsigned N = First; N <= Last; ++N) {
    std::optional<llvm::StringRef> Text = Sources.line(File, N);
    if (!Text)
      break;
    const char *Class = N == Hit             ? "line hit"
                        : NoteLines.count(N) ? "line note"
                                             : "line";
    Body += "<span class=\"" + std::string(Class) + "\"><span class=\"ln\">" +
            std::to_string(N) + "</span>" +
            shownLine(*Text, N == Hit ? HitColumn : 1) + "</span>";
  }
  if (Body.empty())
    return "<div class=\"source\"><div class=\"path\">" +
           escapeHtml(relativePath(File, Ctx.SourceRoot)) +
           " (its source cannot be read)</div></div>\n";
  return "<div class=\"source\"><div class=\"path\">" +
         escapeHtml(relativePath(File, Ctx.SourceRoot)) + "</div><pre>" + Body +
         "</pre></div>\n";
}

/// A link to \p Href around \p Html, or the text alone where nothing is
/// published to link (DocsLinks::Linkable).
std::string anchor(llvm::StringRef Href, llvm::StringRef Html) {
  if (Href.empty())
    return Html.str();
  return "<a href=\"" + escapeHtml(Href) + "\">" + Html.str() + "</a>";
}

/// The recorded GPU run a measurement comes from, where it is published.
std::string runLink(llvm::StringRef Href) {
  return Href.empty() ? std::string()
                      : "<a href=\"" + escapeHtml(Href) + "\">recorded run</a>";
}

std::string diffHtml(llvm::StringRef Diff) {
  std::string Out = "<pre class=\"diff\">";
  llvm::SmallVector<llvm::StringRef> Lines;
  Diff.rtrim('\n').split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    const char *Class = L.starts_with("@@")                            ? "hunk"
                        : L.starts_with("+++") || L.starts_with("---") ? "hunk"
                        : L.starts_with("+")                           ? "add"
                        : L.starts_with("-")                           ? "del"
                                                                       : "";
    Out += std::string("<span class=\"") + Class + "\">" + escapeHtml(L) +
           "</span>";
  }
  return Out + "</pre>";
}

std::string whyItMatters(const ResolvedFinding &F, const OutputContext &Ctx) {
  const CheckInfo *Info = findCheck(F.CheckId);
  if (!Info)
    return "";
  std::string S = "<details class=\"why\"><summary>Why it matters</summary>"
                  "<p>" +
                  escapeHtml(Info->Rationale) + "</p>";
  std::vector<MeasuredCost> Costs = measuredCosts(F.CheckId);
  if (Costs.empty()) {
    S += "<p class=\"muted\">The runtime verifier has no recorded "
         "measurement for this check.</p>";
  } else {
    S += "<p>Measured with CUDA on real GPUs by the runtime verifier "
         "(<code>cuda-async-verify</code>; HIP's runtime was not "
         "measured):</p><ul class=\"cost\">";
    for (const MeasuredCost &C : Costs)
      S += "<li><b>" + escapeHtml(C.Gpu) + "</b>, " + escapeHtml(C.Pipeline) +
           (*C.Scenario ? ", " + escapeHtml(C.Scenario) : std::string()) +
           ": " + escapeHtml(C.Verdict) + ". " + escapeHtml(C.Reason) + ". " +
           runLink(Ctx.Docs.published(C.RunDirectory)) + "</li>";
    S += "</ul>";
  }
  return S + "</details>\n";
}

/// The first recorded run's first measurement, for the summary table:
/// "NVIDIA H100 80GB HBM3: cudaMallocHost: 96% efficiency, 9.70x faster than
/// malloc".
std::string measuredSummary(llvm::StringRef Id) {
  std::vector<MeasuredCost> Costs = measuredCosts(Id);
  if (Costs.empty())
    return "not measured";
  llvm::StringRef First =
      llvm::StringRef(Costs.front().Reason).split(';').first;
  return (llvm::Twine(Costs.front().Gpu) + ": " + First).str();
}

/// Where a check's name links: its page embedded in the report, else its
/// page elsewhere.
std::string checkLink(llvm::StringRef Id, const OutputContext &Ctx,
                      const std::map<std::string, std::string> &Pages) {
  if (Pages.count(Id.str()))
    return "#" + checkPageAnchor(Id);
  return helpUri(Ctx, Id);
}

std::string article(size_t Index, const ResolvedFinding &F,
                    const OutputContext &Ctx, SourceLines &Sources,
                    const std::map<std::string, std::string> &Pages) {
  std::string File = relativePath(F.Loc.File, Ctx.SourceRoot);
  std::string S =
      "<article class=\"finding\" id=\"finding-" + std::to_string(Index + 1) +
      "\" data-check=\"" + escapeHtml(F.CheckId) + "\" data-file=\"" +
      escapeHtml(File) + "\">\n<h3><span class=\"sev " + severityName(F) +
      "\">" + severityName(F) + "</span>" +
      anchor(checkLink(F.CheckId, Ctx, Pages), escapeHtml(F.CheckId)) +
      "<code>" + escapeHtml(locationText(F.Loc, Ctx)) +
      "</code></h3>\n<p class=\"message\">" + escapeHtml(F.Message) + "</p>\n";
  if (F.Runtime)
    S += std::string("<p class=\"runtime ") +
         runtimeStatusName(F.Runtime->State) + "\">" +
         escapeHtml(runtimeText(*F.Runtime)) + "</p>\n";

  // One snippet around the finding, holding the notes near it; notes
  // elsewhere get their own.
  std::set<unsigned> Near;
  unsigned First = F.Loc.Line > Context ? F.Loc.Line - Context : 1;
  unsigned Last = F.Loc.Line + Context;
  std::vector<const ResolvedNote *> Far;
  for (const ResolvedNote &N : F.Notes) {
    bool Close = N.Loc.File == F.Loc.File &&
                 N.Loc.Line + NearbyNote >= F.Loc.Line &&
                 N.Loc.Line <= F.Loc.Line + NearbyNote;
    if (!Close) {
      Far.push_back(&N);
      continue;
    }
    Near.insert(N.Loc.Line);
    First = std::min(First, N.Loc.Line > 1 ? N.Loc.Line - 1 : 1);
    Last = std::max(Last, N.Loc.Line + 1);
  }
  S += snippet(F.Loc.File, First, Last, F.Loc.Line, Near, Sources, Ctx,
               F.Loc.Column);
  if (!F.Notes.empty()) {
    S += "<ul class=\"notes\">";
    for (const ResolvedNote &N : F.Notes)
      S += "<li><code>" + escapeHtml(locationText(N.Loc, Ctx)) +
           "</code>: " + escapeHtml(N.Message) + "</li>";
    S += "</ul>\n";
  }
  for (const ResolvedNote *N : Far)
    S += snippet(N->Loc.File, N->Loc.Line > 1 ? N->Loc.Line - 1 : 1,
                 N->Loc.Line + 1, 0, {N->Loc.Line}, Sources, Ctx);
  if (!F.Fixes.empty())
    if (std::optional<llvm::StringRef> Content =
            Sources.content(F.Fixes.front().Begin.File))
      if (std::optional<std::string> Diff = fixAsUnifiedDiff(
              F, relativePath(F.Fixes.front().Begin.File, Ctx.SourceRoot),
              *Content))
        S += "<details class=\"fix\" open><summary>Suggested fix</summary>" +
             diffHtml(*Diff) + "</details>\n";
  S += whyItMatters(F, Ctx);
  return S + "</article>\n";
}

} // namespace

void writeHtml(const Report &R, const OutputContext &Ctx,
               llvm::raw_ostream &OS) {
  SourceLines Sources(*Ctx.Sources);
  auto [ByCheck, ByFile] = countFindings(R, Ctx);
  std::vector<std::string> Reported;
  for (const auto &Entry : ByCheck)
    if (findCheck(Entry.first))
      Reported.push_back(Entry.first);
  std::map<std::string, std::string> Pages =
      embeddableCheckPages(Ctx.Docs, Reported);
  std::string Title = "cuda-async-lint: " + reportHeadline(R);

  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n<meta name=\"viewport\" "
        "content=\"width=device-width, initial-scale=1\">\n<title>"
     << escapeHtml(Title) << "</title>\n<style>" << HtmlStyle
     << "</style>\n</head>\n<body>\n<header>\n<h1>" << escapeHtml(Title)
     << "</h1>\n<p class=\"muted\">cuda-async-lint "
     << escapeHtml(Ctx.ToolVersion) << "; paths relative to <code>"
     << escapeHtml(Ctx.SourceRoot)
     << "</code></p>\n</header>\n<section id=\"summary\">\n";

  if (!R.Failures.empty()) {
    OS << "<h2>" << countOf(R.Failures.size(), "file was", "files were")
       << " not analysed</h2>\n<ul class=\"failures\">";
    for (const FailedFile &F : R.Failures)
      OS << "<li><code>" << escapeHtml(relativePath(F.File, Ctx.SourceRoot))
         << "</code>: " << escapeHtml(F.Reason) << "</li>";
    OS << "</ul>\n";
  }
  if (std::string Left = notReportedText(R); !Left.empty())
    OS << "<p class=\"not-reported\">" << escapeHtml(Left) << "</p>\n";
  // What the baseline accepted, for a reviewer to see what stays.
  if (!R.BaselinedFindings.empty()) {
    OS << "<details class=\"baselined\"><summary>"
       << countOf(R.BaselinedFindings.size(), "finding", "findings")
       << " in the baseline</summary><ul>";
    for (const ResolvedFinding &F : R.BaselinedFindings)
      OS << "<li><code>" << escapeHtml(locationText(F.Loc, Ctx)) << "</code> "
         << escapeHtml(F.CheckId) << ": " << escapeHtml(F.Message) << "</li>";
    OS << "</ul></details>\n";
  }
  if (!R.Excluded.empty()) {
    OS << "<details class=\"excluded\"><summary>"
       << countOf(R.Excluded.size(), "file was", "files were")
       << " excluded</summary><ul>";
    for (const std::string &F : R.Excluded)
      OS << "<li><code>" << escapeHtml(relativePath(F, Ctx.SourceRoot))
         << "</code></li>";
    OS << "</ul></details>\n";
  }
  if (!R.Findings.empty()) {
    OS << "<h2>Summary</h2>\n<div class=\"tables\">\n<table>"
          "<caption>By check</caption><tr><th>check</th><th>findings</th>"
          "<th>finds</th><th>measured on a GPU</th></tr>";
    for (const auto &[Id, N] : ByCheck) {
      const CheckInfo *Info = findCheck(Id);
      OS << "<tr><td>" << anchor(checkLink(Id, Ctx, Pages), escapeHtml(Id))
         << "</td><td class=\"n\">" << N << "</td><td>"
         << escapeHtml(Info ? Info->Summary : "") << "</td><td>"
         << escapeHtml(measuredSummary(Id)) << "</td></tr>";
    }
    OS << "</table>\n<table><caption>By file</caption><tr><th>file</th>"
          "<th>findings</th></tr>";
    for (const auto &[File, N] : ByFile)
      OS << "<tr><td><code>" << escapeHtml(File)
         << "</code></td><td class=\"n\">" << N << "</td></tr>";
    OS << "</table>\n</div>\n";
  }
  OS << "</section>\n";
  if (!R.Findings.empty()) {
    OS << "<section id=\"filters\"><label>Check <select id=\"check-filter\">"
          "<option value=\"\">all checks</option></select></label><label>"
          "File <select id=\"file-filter\"><option value=\"\">all files"
          "</option></select></label><span id=\"shown\" class=\"muted\">"
       << countOf(R.Findings.size(), "finding", "findings")
       << "</span></section>\n<main id=\"findings\">\n";
    for (size_t I = 0; I < R.Findings.size(); ++I)
      OS << article(I, R.Findings[I], Ctx, Sources, Pages);
    OS << "</main>\n";
  }
  if (!Pages.empty()) {
    OS << "<section id=\"check-pages\">\n<h2>The checks</h2>\n";
    for (const auto &[Id, Body] : Pages)
      OS << "<article class=\"check-page\" id=\"" << checkPageAnchor(Id)
         << "\">\n"
         << Body << "</article>\n";
    OS << "</section>\n";
  }
  OS << "<footer>Written by cuda-async-lint " << escapeHtml(Ctx.ToolVersion)
     << ". Everything this page shows is in this file.</footer>\n";
  // The filters' script, where there is something to filter.
  if (!R.Findings.empty())
    OS << "<script>" << HtmlScript << "</script>\n";
  OS << "</body>\n</html>\n";
}

} // namespace cuda_async_lint
