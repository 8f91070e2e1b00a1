//===- FindingCollector.cpp -----------------------------------------------===//

#include "FindingCollector.h"
#include "Fixes.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/DiagnosticRenderer.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
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

llvm::StringRef lineAt(llvm::StringRef Buffer, unsigned Offset) {
  size_t Begin = Buffer.rfind('\n', Offset);
  Begin = Begin == llvm::StringRef::npos ? 0 : Begin + 1;
  return Buffer.slice(Begin, Buffer.find('\n', Offset));
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

bool nolintNames(llvm::StringRef Rest, llvm::StringRef CheckId) {
  // "NOLINT" alone suppresses everything; "NOLINT(a,b*)" what the globs
  // match.
  if (!Rest.consume_front("("))
    return true;
  llvm::StringRef Globs = Rest.take_until([](char C) { return C == ')'; });
  for (llvm::StringRef Glob : llvm::split(Globs, ',')) {
    Glob = Glob.trim();
    if (Glob.empty() || Glob.starts_with("-"))
      continue;
    if (auto Pattern = llvm::GlobPattern::create(Glob))
      if (Pattern->match(CheckId))
        return true;
  }
  return false;
}

/// True if \p Line carries the NOLINT directive \p Directive for \p CheckId.
bool lineHasDirective(llvm::StringRef Line, llvm::StringRef Directive,
                      llvm::StringRef CheckId) {
  size_t At = Line.find(Directive);
  while (At != llvm::StringRef::npos) {
    llvm::StringRef Rest = Line.drop_front(At + Directive.size());
    // NOLINT must not match the front of NOLINTNEXTLINE or NOLINTBEGIN.
    if ((Rest.empty() || !llvm::isAlnum(Rest.front())) &&
        nolintNames(Rest, CheckId))
      return true;
    At = Line.find(Directive, At + 1);
  }
  return false;
}

} // namespace

NolintBlocks::NolintBlocks(llvm::StringRef Buffer) {
  // Only lines that name NOLINTBEGIN or NOLINTEND (NOLINTEND is found by
  // its prefix) can open or close a block: find them once, not per finding.
  for (size_t At = Buffer.find("NOLINT"); At != llvm::StringRef::npos;
       At = Buffer.find("NOLINT", At + 1)) {
    llvm::StringRef Rest = Buffer.drop_front(At + 6);
    if (!Rest.starts_with("BEGIN") && !Rest.starts_with("END"))
      continue;
    unsigned LineBegin = lineAt(Buffer, At).data() - Buffer.data();
    if (DirectiveLines.empty() || DirectiveLines.back() != LineBegin)
      DirectiveLines.push_back(LineBegin);
  }
}

bool NolintBlocks::isOpenAt(llvm::StringRef Buffer, unsigned LineBegin,
                            llvm::StringRef CheckId) const {
  int Open = 0;
  for (unsigned Begin : DirectiveLines) {
    if (Begin >= LineBegin)
      break;
    llvm::StringRef L = lineAt(Buffer, Begin);
    if (lineHasDirective(L, "NOLINTBEGIN", CheckId))
      ++Open;
    else if (lineHasDirective(L, "NOLINTEND", CheckId) && Open > 0)
      --Open;
  }
  return Open > 0;
}

bool isSuppressedByNolint(llvm::StringRef Buffer, unsigned Offset,
                          llvm::StringRef CheckId, const NolintBlocks &Blocks) {
  llvm::StringRef Line = lineAt(Buffer, Offset);
  if (lineHasDirective(Line, "NOLINT", CheckId))
    return true;
  size_t LineBegin = Line.data() - Buffer.data();
  if (LineBegin > 0 && lineHasDirective(lineAt(Buffer, LineBegin - 1),
                                        "NOLINTNEXTLINE", CheckId))
    return true;
  // An open NOLINTBEGIN block before the line.
  return Blocks.isOpenAt(Buffer, LineBegin, CheckId);
}

bool isSuppressedByNolint(llvm::StringRef Buffer, unsigned Offset,
                          llvm::StringRef CheckId) {
  return isSuppressedByNolint(Buffer, Offset, CheckId, NolintBlocks(Buffer));
}

void FindingCollector::report(const Finding &F, ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  SourceLocation FileLoc = SM.getFileLoc(F.Loc);
  // As clang-tidy: nothing from system headers.
  if (FileLoc.isInvalid() || SM.isInSystemHeader(FileLoc))
    return;
  // NOLINT applies on the reported line and on each macro expansion's line.
  for (SourceLocation L = F.Loc;;
       L = SM.getImmediateExpansionRange(L).getBegin()) {
    SourceLocation Line = SM.getFileLoc(L);
    bool Invalid = false;
    llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Line), &Invalid);
    if (!Invalid &&
        isSuppressedByNolint(
            Buffer, SM.getFileOffset(Line), F.CheckId,
            BlocksByBuffer.try_emplace(Buffer.data(), Buffer).first->second))
      return;
    if (!L.isMacroID())
      break;
  }

  ResolvedFinding R;
  R.CheckId = F.CheckId;
  R.Loc = resolve(SM, F.Loc);
  R.Message = F.Message;
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(FileLoc), &Invalid);
  if (!Invalid)
    R.LineText = lineAt(Buffer, SM.getFileOffset(FileLoc)).str();
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
  Renderer.emitDiagnostic(FullSourceLoc(F.Loc, SM), DiagnosticsEngine::Warning,
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
