//===- TextOutput.cpp - Text, and what every format shares ----------------===//

#include "Output.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "support/PathComponents.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

std::string helpUri(const OutputContext &Ctx, llvm::StringRef CheckId) {
  if (!findCheck(CheckId))
    return "https://clang.llvm.org/extra/clang-tidy/"
           "#suppressing-undesired-diagnostics";
  return Ctx.Docs.Linkable() ? Ctx.Docs.checkPage(CheckId) : std::string();
}

/// The bracketed name clang-tidy prints: a warning WarningsAsErrors made an
/// error says so.
static std::string checkLabel(const ResolvedFinding &F) {
  if (F.IsError && findCheck(F.CheckId))
    return F.CheckId + ",-warnings-as-errors";
  return F.CheckId;
}

void writeText(llvm::ArrayRef<ResolvedFinding> Findings, llvm::raw_ostream &OS,
               bool Colors,
               llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Sources) {
  // clang-tidy's ErrorReporter: a fresh source manager over the files, a
  // TextDiagnosticPrinter, "<message> [<check>]" warnings and "%0" notes at
  // file offsets.
  clang::DiagnosticOptions Options;
  Options.ShowColors = Colors;
  clang::TextDiagnosticPrinter Printer(OS, Options);
  clang::DiagnosticsEngine Diags(new clang::DiagnosticIDs(), Options, &Printer,
                                 /*ShouldOwnClient=*/false);
  clang::FileManager Files{clang::FileSystemOptions(), std::move(Sources)};
  clang::SourceManager Manager(Diags, Files);
  Diags.setSourceManager(&Manager);
  clang::LangOptions LangOpts;
  Printer.BeginSourceFile(LangOpts, /*PP=*/nullptr);

  auto Location = [&](const RenderedMessage &M) -> clang::SourceLocation {
    if (M.File.empty())
      return {};
    llvm::Expected<clang::FileEntryRef> File = Files.getFileRef(M.File);
    if (!File) {
      llvm::consumeError(File.takeError());
      return {};
    }
    clang::FileID ID = Manager.getOrCreateFileID(*File, clang::SrcMgr::C_User);
    return Manager.getLocForStartOfFile(ID).getLocWithOffset(M.Offset);
  };
  for (const ResolvedFinding &F : Findings) {
    for (const RenderedMessage &M : F.Messages) {
      clang::SourceLocation Loc = Location(M);
      auto Diag =
          M.IsNote
              ? Diags.Report(Loc, Diags.getCustomDiagID(
                                      clang::DiagnosticsEngine::Note, "%0"))
                    << M.Message
              : Diags.Report(Loc,
                             Diags.getCustomDiagID(
                                 F.IsError ? clang::DiagnosticsEngine::Error
                                           : clang::DiagnosticsEngine::Warning,
                                 "%0 [%1]"))
                    << M.Message << checkLabel(F);
      if (Loc.isInvalid())
        continue;
      for (auto [Offset, Length] : M.Ranges)
        Diag << clang::CharSourceRange::getCharRange(
            Loc.getLocWithOffset(Offset - M.Offset),
            Loc.getLocWithOffset(Offset - M.Offset + Length));
      for (const auto &[Offset, Length, Text] : M.Fixes)
        Diag << clang::FixItHint::CreateReplacement(
            clang::CharSourceRange::getCharRange(
                Loc.getLocWithOffset(Offset - M.Offset),
                Loc.getLocWithOffset(Offset - M.Offset + Length)),
            Text);
    }
  }
  Printer.EndSourceFile();
}

void writeReport(ReportFormat Format, const Report &R, const OutputContext &Ctx,
                 llvm::raw_ostream &OS, bool Colors) {
  switch (Format) {
  case ReportFormat::Text:
    return writeText(R.Findings, OS, Colors, Ctx.Sources);
  case ReportFormat::Json:
    return writeJson(R, Ctx, OS);
  case ReportFormat::Sarif:
    return writeSarif(R, Ctx, OS);
  case ReportFormat::Markdown:
  case ReportFormat::Html: {
    // Source lines and messages reach these reports as they are: control
    // characters are shown, not sent (a raw CR breaks a job summary's
    // table row; an escape sequence reaches whatever renders it).
    std::string Rendered;
    llvm::raw_string_ostream Stream(Rendered);
    if (Format == ReportFormat::Markdown)
      writeMarkdown(R, Ctx, Stream);
    else
      writeHtml(R, Ctx, Stream);
    writeWithVisibleControls(Stream.str(), OS);
    return;
  }
  case ReportFormat::Rdjson:
    return writeRdjson(R, Ctx, OS);
  case ReportFormat::CodeClimate:
    return writeCodeClimate(R, Ctx, OS);
  }
  llvm_unreachable("unknown ReportFormat");
}

std::string locationText(const FileLocation &L, const OutputContext &Ctx) {
  return relativePath(L.File, Ctx.SourceRoot) + ":" + std::to_string(L.Line) +
         ":" + std::to_string(L.Column);
}

void writeWithVisibleControls(llvm::StringRef Text, llvm::raw_ostream &OS) {
  // Runs of ordinary characters are written whole.
  size_t Start = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    unsigned char C = Text[I];
    if (C >= 0x20 && C != 0x7f)
      continue;
    if (C == '\n' || C == '\t')
      continue;
    OS << Text.slice(Start, I);
    Start = I + 1;
    if (C == '\r' && I + 1 < Text.size() && Text[I + 1] == '\n')
      continue; // A CRLF line's end.
    // Unicode's control pictures: U+2400 + C, U+2421 for DEL.
    unsigned Picture = C == 0x7f ? 0x2421 : 0x2400 + C;
    OS << char(0xe0 | (Picture >> 12)) << char(0x80 | ((Picture >> 6) & 0x3f))
       << char(0x80 | (Picture & 0x3f));
  }
  OS << Text.drop_front(Start);
}

std::string escapeHtml(llvm::StringRef Text) {
  // llvm::printHTMLEscaped's entities, appended to a string a run of
  // ordinary characters at a time: that function writes a character at a
  // time to an unbuffered string stream, which an HTML report of thousands
  // of findings on long lines paid for.
  std::string Out;
  Out.reserve(Text.size() + Text.size() / 8);
  size_t Start = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    const char *Entity = nullptr;
    switch (Text[I]) {
    case '&':
      Entity = "&amp;";
      break;
    case '<':
      Entity = "&lt;";
      break;
    case '>':
      Entity = "&gt;";
      break;
    case '"':
      Entity = "&quot;";
      break;
    case '\'':
      Entity = "&apos;";
      break;
    default:
      continue;
    }
    Out.append(Text.data() + Start, I - Start);
    Out += Entity;
    Start = I + 1;
  }
  Out.append(Text.data() + Start, Text.size() - Start);
  return Out;
}

std::string countOf(size_t N, llvm::StringRef One, llvm::StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

std::string reportHeadline(const Report &R) {
  return (R.Findings.empty()
              ? std::string("no findings")
              : countOf(R.Findings.size(), "finding", "findings")) +
         " in " + countOf(R.FilesAnalysed, "file", "files") +
         // The count is of the files asked for: say how many of them have
         // no findings because they were not analysed.
         (R.Failures.empty()
              ? std::string()
              : " (" + std::to_string(R.Failures.size()) + " not analysed)");
}

std::string notReportedText(const Report &R) {
  std::vector<std::string> Parts;
  if (R.Baselined)
    Parts.push_back(countOf(R.Baselined, "finding", "findings") +
                    " in the baseline");
  if (R.Suppressed)
    Parts.push_back(std::to_string(R.Suppressed) + " suppressed by NOLINT");
  if (Parts.empty())
    return "";
  return "Not reported: " + llvm::join(Parts, ", ") + ".";
}

FindingCounts countFindings(const Report &R, const OutputContext &Ctx) {
  FindingCounts C;
  for (const ResolvedFinding &F : R.Findings) {
    ++C.ByCheck[F.CheckId];
    ++C.ByFile[relativePath(F.Loc.File, Ctx.SourceRoot)];
  }
  return C;
}

std::string runtimeText(const RuntimeEvidence &E) {
  switch (E.State) {
  case RuntimeEvidence::Status::Confirmed:
    return "Confirmed at run time ('" + E.Trace + "'): " + E.Summary;
  case RuntimeEvidence::Status::Exercised:
    return "Exercised by the run in '" + E.Trace + "': " + E.Summary;
  case RuntimeEvidence::Status::NotExercised:
    return "Not exercised by the run in '" + E.Trace + "'";
  case RuntimeEvidence::Status::FoundAtRunTime:
    return "Found at run time ('" + E.Trace + "'), not by the analysis";
  }
  return "";
}

} // namespace cuda_async_lint
