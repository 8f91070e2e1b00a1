//===- FindingCollector.cpp -----------------------------------------------===//

#include "FindingCollector.h"
#include "NoLintIndex.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/NoLintDirectiveHandler.h"
#include "config/Configuration.h"
#include "report/Fixes.h"
#include "report/LineText.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/DiagnosticRenderer.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <tuple>

using namespace clang;

namespace cuda_async_lint {

namespace {

/// \p File made absolute against the working directory of the file system
/// it was parsed from (the compile command's directory), not the process's.
std::string absolutePath(const SourceManager &SM, llvm::StringRef File) {
  llvm::SmallString<256> Path(File);
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

FileLocation resolve(const SourceManager &SM, SourceLocation Loc) {
  FileLocation R;
  Loc = SM.getFileLoc(Loc);
  if (Loc.isInvalid())
    return R;
  R.File = absolutePath(SM, SM.getFilename(Loc));
  R.Line = SM.getSpellingLineNumber(Loc);
  R.Column = SM.getSpellingColumnNumber(Loc);
  R.Offset = SM.getFileOffset(Loc);
  return R;
}

/// The line of \p Buffer (of \p FID) at \p Offset, by the source manager's
/// table of line starts: not by scanning the line, which on one line of
/// thousands of findings is read once per finding.
llvm::StringRef lineAt(const SourceManager &SM, FileID FID,
                       llvm::StringRef Buffer, unsigned Offset) {
  unsigned Line = SM.getLineNumber(FID, Offset);
  unsigned Begin = SM.getFileOffset(SM.translateLineCol(FID, Line, 1));
  SourceLocation Next = SM.translateLineCol(FID, Line + 1, 1);
  size_t End = Next.isValid() ? SM.getFileOffset(Next) : Buffer.size();
  if (Begin > Offset || End <= Offset)
    return {};
  // Without its '\n' (a '\r' before it stays, as it always has).
  llvm::StringRef Text = Buffer.slice(Begin, End);
  return Text.ends_with("\n") ? Text.drop_back() : Text;
}

/// Records what clang's renderer would print, as clang-tidy's own renderer
/// does: file, offset, message, ranges and fix-its of each message.
class RecordingRenderer : public DiagnosticRenderer {
public:
  RecordingRenderer(const LangOptions &LO, DiagnosticOptions &Opts,
                    std::vector<RenderedMessage> &Out)
      : DiagnosticRenderer(LO, Opts), Out(Out) {}

protected:
  void emitDiagnosticMessage(FullSourceLoc Loc, PresumedLoc PLoc,
                             DiagnosticsEngine::Level Level, StringRef Message,
                             ArrayRef<CharSourceRange> Ranges,
                             DiagOrStoredDiag) override {
    RenderedMessage M;
    M.IsNote = Level == DiagnosticsEngine::Note;
    M.Message = Message.str();
    if (Loc.isValid()) {
      const SourceManager &SM = Loc.getManager();
      M.File = SM.getFilename(Loc).str();
      M.Offset = SM.getFileOffset(Loc);
      for (CharSourceRange R : Ranges) {
        // Token ranges become character ranges: the replay has no lexer.
        SourceLocation End =
            R.isTokenRange()
                ? Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LangOpts)
                : R.getEnd();
        if (SM.getFileID(R.getBegin()) != SM.getFileID(End))
          continue;
        unsigned Begin = SM.getFileOffset(R.getBegin());
        M.Ranges.push_back({Begin, SM.getFileOffset(End) - Begin});
      }
    }
    Out.push_back(std::move(M));
  }

  void emitCodeContext(FullSourceLoc Loc, DiagnosticsEngine::Level,
                       SmallVectorImpl<CharSourceRange> &,
                       ArrayRef<FixItHint> Hints) override {
    const SourceManager &SM = Loc.getManager();
    for (const FixItHint &Hint : Hints) {
      unsigned Begin = SM.getFileOffset(Hint.RemoveRange.getBegin());
      unsigned End = SM.getFileOffset(Hint.RemoveRange.getEnd());
      Out.back().Fixes.emplace_back(Begin, End - Begin, Hint.CodeToInsert);
    }
  }

  void emitDiagnosticLoc(FullSourceLoc, PresumedLoc, DiagnosticsEngine::Level,
                         ArrayRef<CharSourceRange>) override {}
  void emitIncludeLocation(FullSourceLoc, PresumedLoc) override {}
  void emitImportLocation(FullSourceLoc, PresumedLoc, StringRef) override {}
  void emitBuildingModuleLocation(FullSourceLoc, PresumedLoc,
                                  StringRef) override {}

private:
  std::vector<RenderedMessage> &Out;
};

} // namespace

FindingCollector::FindingCollector(tidy::ClangTidyContext &Tidy)
    : Tidy(Tidy), NoLint(std::make_unique<tidy::NoLintDirectiveHandler>()),
      NoLints(std::make_unique<NoLintIndex>()),
      HeaderFilter(std::make_unique<llvm::Regex>(
          Tidy.getOptions().HeaderFilterRegex.value_or(""))),
      ExcludeHeaderFilter(std::make_unique<llvm::Regex>(
          Tidy.getOptions().ExcludeHeaderFilterRegex.value_or(""))),
      GateByWarningsAsErrors(warningsAsErrorsDecideGate(Tidy.getOptions())) {}

FindingCollector::~FindingCollector() = default;

bool FindingCollector::relatesToUserCode(const SourceManager &SM,
                                         SourceLocation Loc) const {
  // clang-tidy's ClangTidyDiagnosticConsumer::checkFilters, whose rules
  // (system headers, the main file, the header filters) this mirrors.
  if (Loc.isInvalid())
    return true;
  if (!Tidy.getOptions().SystemHeaders.value_or(false) &&
      (SM.isInSystemHeader(Loc) || SM.isInSystemMacro(Loc)))
    return false;
  FileID FID = SM.getDecomposedExpansionLoc(Loc).first;
  OptionalFileEntryRef File = SM.getFileEntryRefForID(FID);
  if (!File)
    return true;
  llvm::StringRef Name = File->getName();
  // An empty regex matches nothing.
  return SM.isInMainFile(Loc) ||
         (HeaderFilter->match(Name) && !ExcludeHeaderFilter->match(Name));
}

void FindingCollector::report(const Finding &F, ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  SourceLocation FileLoc = SM.getFileLoc(F.Loc);
  if (FileLoc.isInvalid())
    return;
  // NOLINT, NOLINTNEXTLINE and NOLINTBEGIN/END by clang-tidy's own handler,
  // which also finds unmatched NOLINTBEGIN/END comments: reported as
  // clang-tidy reports them, suppressed or not.
  llvm::SmallVector<tooling::Diagnostic, 1> NoLintErrors;
  auto Suppresses = [&](SourceLocation Loc, DiagnosticsEngine::Level Level,
                        llvm::StringRef Message) {
    if (!NoLints->mayCover(SM, Loc))
      return false;
    DiagnosticStorage Storage;
    Diagnostic Diag(&Context.getDiagnostics(), Loc, /*DiagID=*/0, Storage,
                    Message);
    return NoLint->shouldSuppress(Level, Diag, F.CheckId, NoLintErrors,
                                  /*AllowIO=*/true,
                                  /*EnableNoLintBlocks=*/true);
  };
  bool Suppressed = Suppresses(F.Loc, DiagnosticsEngine::Warning, F.Message);
  // As ClangTidyDiagnosticConsumer: each note is checked too, and a note
  // that NOLINT covers drops itself and the notes after it.
  Finding Kept = F;
  if (!Suppressed) {
    Kept.Notes.clear();
    for (const FindingNote &N : F.Notes) {
      if (Suppresses(N.Loc, DiagnosticsEngine::Note, N.Message))
        break;
      Kept.Notes.push_back(N);
    }
  }
  for (const tooling::Diagnostic &E : NoLintErrors)
    reportNoLintError(E, Context);
  if (Suppressed) {
    // Counted by the report (a header's once, whichever units saw it).
    auto [FID, Offset] = SM.getDecomposedLoc(FileLoc);
    if (OptionalFileEntryRef File = SM.getFileEntryRefForID(FID))
      SuppressedKeys.push_back(
          (File->getName() + ":" + llvm::Twine(Offset) + ":" + F.CheckId)
              .str());
    return;
  }
  bool UserCode = relatesToUserCode(SM, Kept.Loc);
  for (const FindingNote &N : Kept.Notes)
    UserCode = UserCode || relatesToUserCode(SM, N.Loc);
  if (!UserCode)
    return;
  record(Kept, Context, /*IsError=*/Tidy.treatAsError(F.CheckId));
}

void FindingCollector::reportNoLintError(const tooling::Diagnostic &E,
                                         ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  llvm::Expected<FileEntryRef> File =
      SM.getFileManager().getFileRef(E.Message.FilePath);
  if (!File) {
    llvm::consumeError(File.takeError());
    return;
  }
  FileID FID = SM.translateFile(*File);
  if (FID.isInvalid())
    return;
  Finding F;
  F.CheckId = E.DiagnosticName;
  F.Loc = SM.getLocForStartOfFile(FID).getLocWithOffset(E.Message.FileOffset);
  F.Message = E.Message.Message;
  record(F, Context, /*IsError=*/true);
}

void FindingCollector::record(const Finding &F, ASTContext &Context,
                              bool IsError) {
  const SourceManager &SM = Context.getSourceManager();
  SourceLocation FileLoc = SM.getFileLoc(F.Loc);
  ResolvedFinding R;
  R.CheckId = F.CheckId;
  R.IsError = IsError;
  R.FailsGate = IsError || !GateByWarningsAsErrors;
  R.Loc = resolve(SM, F.Loc);
  R.Message = F.Message;
  bool Invalid = false;
  FileID FID = SM.getFileID(FileLoc);
  llvm::StringRef Buffer = SM.getBufferData(FID, &Invalid);
  if (!Invalid)
    keepLineText(lineAt(SM, FID, Buffer, SM.getFileOffset(FileLoc)), R);
  for (const FindingNote &N : F.Notes)
    R.Notes.push_back({resolve(SM, N.Loc), N.Message});
  std::vector<FixItHint> Hints;
  for (const FixIt &Fix : F.Fixes) {
    CharSourceRange Range =
        Lexer::makeFileCharRange(Fix.Range, SM, Context.getLangOpts());
    if (Range.isInvalid())
      continue;
    bool BufferInvalid = false;
    llvm::StringRef Parsed =
        SM.getBufferData(SM.getFileID(Range.getBegin()), &BufferInvalid);
    R.Fixes.push_back({resolve(SM, Range.getBegin()),
                       resolve(SM, Range.getEnd()), Fix.Replacement,
                       BufferInvalid ? 0 : contentHash(Parsed)});
    Hints.push_back(FixItHint::CreateReplacement(Range, Fix.Replacement));
  }

  DiagnosticOptions Options;
  RecordingRenderer Renderer(Context.getLangOpts(), Options, R.Messages);
  Renderer.emitDiagnostic(FullSourceLoc(F.Loc, SM),
                          IsError ? DiagnosticsEngine::Error
                                  : DiagnosticsEngine::Warning,
                          F.Message, {}, Hints);
  for (const FindingNote &N : F.Notes)
    Renderer.emitDiagnostic(FullSourceLoc(N.Loc, SM), DiagnosticsEngine::Note,
                            N.Message, {}, {});
  for (RenderedMessage &M : R.Messages)
    if (!M.File.empty())
      M.File = absolutePath(SM, M.File);
  Findings.push_back(std::move(R));
}

void sortAndUnique(std::vector<ResolvedFinding> &Findings) {
  auto Key = [](const ResolvedFinding &F) {
    return std::tie(F.Loc.File, F.Loc.Offset, F.CheckId, F.Message);
  };
  // Notes break ties, so which duplicate survives is deterministic.
  auto NoteKey = [](const ResolvedFinding &F) {
    std::vector<std::tuple<std::string, unsigned, std::string>> Notes;
    for (const ResolvedNote &N : F.Notes)
      Notes.emplace_back(N.Loc.File, N.Loc.Offset, N.Message);
    return Notes;
  };
  llvm::sort(Findings, [&](const ResolvedFinding &A, const ResolvedFinding &B) {
    if (Key(A) != Key(B))
      return Key(A) < Key(B);
    return NoteKey(A) < NoteKey(B);
  });
  Findings.erase(
      std::unique(Findings.begin(), Findings.end(),
                  [&](const ResolvedFinding &A, const ResolvedFinding &B) {
                    return Key(A) == Key(B);
                  }),
      Findings.end());
}

} // namespace cuda_async_lint
