//===- Output.h - Rendering a Report as text, JSON or SARIF -----*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_OUTPUT_H
#define CUDA_ASYNC_LINT_DRIVER_OUTPUT_H

#include "DocsLinks.h"
#include "report/Report.h"
#include "support/PathComponents.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

namespace cuda_async_lint {

/// Where paths in JSON and SARIF are relative to (the working directory),
/// and the tool's identity.
struct OutputContext {
  std::string SourceRoot; ///< Absolute, no trailing separator.
  std::string ToolVersion;
  /// Where the check pages and the rest of the documentation are linked.
  DocsLinks Docs;
  /// The files as the reports quote them: the disk, or, once --fix has
  /// rewritten some, those as they were analysed (the findings' offsets are
  /// theirs).
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Sources =
      llvm::vfs::getRealFileSystem();
};

/// Where the finding's check is documented: our check pages, or for
/// clang-tidy's own diagnostics (clang-tidy-nolint) clang-tidy's manual.
/// Empty where the documentation is not published (DocsLinks::Linkable).
std::string helpUri(const OutputContext &Ctx, llvm::StringRef CheckId);

/// "error" or "warning", as clang-tidy prints the finding.
inline const char *severityName(const ResolvedFinding &F) {
  return F.IsError ? "error" : "warning";
}

enum class ReportFormat {
  Text,
  Json,
  Sarif,
  Markdown,
  Html,
  Rdjson,
  CodeClimate
};

/// Writes \p R in \p Format (colors apply to text only).
void writeReport(ReportFormat Format, const Report &R, const OutputContext &Ctx,
                 llvm::raw_ostream &OS, bool Colors);

/// clang-tidy's text: each finding's warning and notes with snippets quoted
/// from \p Sources, colored if \p Colors.
void writeText(llvm::ArrayRef<ResolvedFinding> Findings, llvm::raw_ostream &OS,
               bool Colors,
               llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Sources =
                   llvm::vfs::getRealFileSystem());

/// The project's own JSON schema, version 1 (docs/usage.md describes it).
void writeJson(const Report &R, const OutputContext &Ctx,
               llvm::raw_ostream &OS);

/// SARIF 2.1.0, one run.
void writeSarif(const Report &R, const OutputContext &Ctx,
                llvm::raw_ostream &OS);

/// Markdown for a pull-request comment or $GITHUB_STEP_SUMMARY: counts by
/// check and file, then each finding with its notes, fix as a diff and
/// check page; folded and cut to stay under a comment's size limit.
void writeMarkdown(const Report &R, const OutputContext &Ctx,
                   llvm::raw_ostream &OS);

/// One self-contained HTML page for reviewers: summary, filters, each
/// finding with its source lines, fix, rationale and measured GPU cost.
void writeHtml(const Report &R, const OutputContext &Ctx,
               llvm::raw_ostream &OS);

/// reviewdog's Diagnostic Format (rdjson), fix-its as suggestions.
void writeRdjson(const Report &R, const OutputContext &Ctx,
                 llvm::raw_ostream &OS);

/// Code Climate issues, as GitLab's Code Quality report reads them.
void writeCodeClimate(const Report &R, const OutputContext &Ctx,
                      llvm::raw_ostream &OS);

/// What --runtime-trace says of a finding, in one sentence for the reports:
/// "confirmed at run time: ...", "not exercised by the run in '...'".
std::string runtimeText(const RuntimeEvidence &E);

// What the reports for people (Markdown, HTML) say alike.

/// "src/a.cu:6:3", the path relative to the source root.
std::string locationText(const FileLocation &L, const OutputContext &Ctx);

/// \p Text with its control characters (but newlines and tabs) shown as
/// Unicode's control pictures ('\x1b' as U+241B), and CRLF line ends as
/// newlines, written to \p OS: the Markdown and HTML reports pass through
/// it whole.
void writeWithVisibleControls(llvm::StringRef Text, llvm::raw_ostream &OS);

/// Text as HTML shows it: LLVM's escaping of & < > " and '.
std::string escapeHtml(llvm::StringRef Text);

/// "1 finding", "3 findings".
std::string countOf(size_t N, llvm::StringRef One, llvm::StringRef Many);

/// "no findings in 2 files", "3 findings in 1 file".
std::string reportHeadline(const Report &R);

/// What the report leaves out, for reviewers: "Not reported: 5 findings in
/// the baseline, 1 suppressed by NOLINT." (empty if nothing).
std::string notReportedText(const Report &R);

/// How many findings each check id and each file (relative to the source
/// root) has, in sorted order.
struct FindingCounts {
  std::map<std::string, size_t> ByCheck, ByFile;
};
FindingCounts countFindings(const Report &R, const OutputContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_OUTPUT_H
