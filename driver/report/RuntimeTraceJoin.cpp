//===- RuntimeTraceJoin.cpp - Static findings beside a traced run ---------===//

#include "RuntimeTraceJoin.h"
#include "LineText.h"
#include "support/PathComponents.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <optional>

namespace cuda_async_lint {

using cuda_async_trace::formatTimes;
using cuda_async_trace::RuntimeFinding;
using cuda_async_trace::SourceLocation;
using cuda_async_trace::TraceSite;

const char *runtimeStatusName(RuntimeEvidence::Status S) {
  switch (S) {
  case RuntimeEvidence::Status::Confirmed:
    return "confirmed";
  case RuntimeEvidence::Status::Exercised:
    return "exercised";
  case RuntimeEvidence::Status::NotExercised:
    return "not-exercised";
  case RuntimeEvidence::Status::FoundAtRunTime:
    return "found-at-run-time";
  }
  return "unknown";
}

RuntimeTraceJoin::RuntimeTraceJoin(cuda_async_trace::Trace T,
                                   std::string TracePath,
                                   std::string SourceRoot)
    : T(std::move(T)), TracePath(std::move(TracePath)),
      SourceRoot(std::move(SourceRoot)) {}

static std::string normalized(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return P.str().str();
}

bool RuntimeTraceJoin::sameFile(llvm::StringRef TraceFile,
                                llvm::StringRef File) const {
  std::string A = normalized(TraceFile), B = normalized(File);
  if (A == B)
    return true;
  // The program may have been built from another checkout: the analysed
  // file's path under the source root, at the end of the trace's path.
  if (!isPathUnder(B, SourceRoot))
    return false;
  llvm::StringRef Relative =
      llvm::StringRef(B).drop_front(SourceRoot.size()).ltrim("/");
  return !Relative.empty() &&
         llvm::StringRef(A).ends_with("/" + Relative.str());
}

/// How far a race's access may be from the line a finding names it at.
static constexpr unsigned NearbyLines = 3;

/// The note unsynchronized-access adds where a callee touches the buffer
/// ("'*h' is read here"; analysis/pending/HazardText's words).
static bool isAccessNote(const ResolvedNote &N) {
  llvm::StringRef M = N.Message;
  return M.starts_with("'") && M.ends_with(" here");
}

void RuntimeTraceJoin::annotate(std::vector<ResolvedFinding> &Findings) {
  for (ResolvedFinding &F : Findings) {
    std::vector<const FileLocation *> Lines{&F.Loc};
    for (const ResolvedNote &N : F.Notes)
      Lines.push_back(&N.Loc);
    // The finding's own line matching \p L (its file as analysed here, the
    // trace's column), if any.
    auto Match = [&](const SourceLocation &L) -> std::optional<FileLocation> {
      if (!L.known())
        return std::nullopt;
      for (const FileLocation *Line : Lines)
        if (Line->Line == L.Line && sameFile(L.File, Line->File)) {
          FileLocation Site = *Line;
          Site.Column = L.Column;
          return Site;
        }
      return std::nullopt;
    };
    auto Matches = [&](const SourceLocation &L) {
      return Match(L).has_value();
    };
    // A race on the same copy, at the access a call reaches: the runtime
    // finding's copy is a line of the finding (its "issued here" note), and
    // its access lies within NearbyLines of the note that says where the
    // callee touches the buffer ("'*h' is read here"). An optimized build's
    // line table puts a load a line or two from the expression that reads
    // ('if (*h)' then 'sum += *h' is one load): the race is the same. The
    // finding's own line, and the copy's, match exactly only: an access
    // beside another (the other half of a page) is another access.
    auto SameRace = [&](const RuntimeFinding &R) {
      if (!R.Related.known() || !Matches(R.Related) || !R.Location.known())
        return false;
      return llvm::any_of(F.Notes, [&](const ResolvedNote &N) {
        unsigned L = R.Location.Line;
        return isAccessNote(N) && sameFile(R.Location.File, N.Loc.File) &&
               (L > N.Loc.Line ? L - N.Loc.Line : N.Loc.Line - L) <=
                   NearbyLines;
      });
    };

    RuntimeEvidence E;
    E.Trace = TracePath;
    const RuntimeFinding *Shown = nullptr;
    for (size_t I = 0; I < T.Findings.size(); ++I)
      if (T.Findings[I].CheckId == F.CheckId &&
          (Matches(T.Findings[I].Location) ||
           (F.CheckId == "cuda-async-unsynchronized-access" &&
            SameRace(T.Findings[I])))) {
        Covered.insert(I);
        if (!Shown)
          Shown = &T.Findings[I];
      }
    // Whether the finding's own line ran: a note's line running (the
    // allocation of what is released wrongly) says nothing of it.
    const TraceSite *Ran = nullptr;
    uint64_t RanCalls = 0;
    for (const TraceSite &S : T.Sites)
      if (S.Location.Line == F.Loc.Line &&
          sameFile(S.Location.File, F.Loc.File)) {
        if (!Ran)
          Ran = &S;
        RanCalls += S.Calls;
      }
    // A race the detector would have caught: with --races, the copy a
    // finding's note names ran watched, and no access on the finding's
    // line raced with it.
    const TraceSite *Watched = nullptr;
    if (!Ran && F.CheckId == "cuda-async-unsynchronized-access" &&
        llvm::any_of(T.Processes,
                     [](const auto &P) { return P.DetectedRaces; }))
      for (const ResolvedNote &N : F.Notes)
        for (const TraceSite &S : T.Sites)
          if (!Watched && S.Kind == "copy" && S.Async &&
              S.Location.Line == N.Loc.Line &&
              sameFile(S.Location.File, N.Loc.File))
            Watched = &S;
    const cuda_async_trace::TracedProcess *Crashed = nullptr;
    for (const auto &P : T.Processes)
      if (P.Signal && F.CheckId == "cuda-async-dealloc-mismatch" &&
          P.Crash.Line == F.Loc.Line && sameFile(P.Crash.File, F.Loc.File))
        Crashed = &P;

    std::string Note;
    if (Shown) {
      E.State = RuntimeEvidence::Status::Confirmed;
      E.Summary = Shown->Message;
      E.Site = Match(Shown->Location).value_or(F.Loc);
      E.Calls = Shown->Calls;
      E.Bytes = Shown->Bytes;
      E.HostNs = Shown->HostNs;
      Note = "confirmed at run time by '" + TracePath + "': " + E.Summary;
    } else if (Crashed) {
      E.State = RuntimeEvidence::Status::Confirmed;
      E.Summary = "the program died of signal " +
                  std::to_string(Crashed->Signal) + " here" +
                  (Crashed->CrashedIn.empty()
                       ? std::string()
                       : ", inside '" + Crashed->CrashedIn + "'");
      E.Site = F.Loc;
      E.Calls = 1;
      Note = "confirmed at run time by '" + TracePath + "': " + E.Summary;
    } else if (Watched) {
      E.State = RuntimeEvidence::Status::Exercised;
      E.Summary = "its copy ('" + Watched->Api + "' at line " +
                  std::to_string(Watched->Location.Line) + ") ran " +
                  formatTimes(Watched->Calls) +
                  " watched by the race detector, and no host access on "
                  "this line touched it in flight";
      E.Site = F.Loc;
      E.Calls = Watched->Calls;
      Note = "exercised by the run in '" + TracePath + "': " + E.Summary;
    } else if (Ran) {
      E.State = RuntimeEvidence::Status::Exercised;
      E.Summary = "'" + Ran->Api + "' ran here " + formatTimes(RanCalls) +
                  " and the run did not show the bug";
      E.Site = F.Loc;
      E.Site.Column = Ran->Location.Column;
      E.Calls = RanCalls;
      E.HostNs = Ran->HostNs;
      Note = "exercised by the run in '" + TracePath + "': " + E.Summary;
    } else {
      E.State = RuntimeEvidence::Status::NotExercised;
      // The trace records CUDA calls: a release by free() or a host read
      // leaves no record even when it runs.
      E.Summary = "the trace saw no call on this line";
      Note = "not exercised by the run in '" + TracePath + "'";
    }
    RenderedMessage M;
    M.IsNote = true;
    M.Message = Note;
    F.Messages.push_back(std::move(M));
    F.Runtime = std::move(E);
  }
}

/// The byte offset of \p Line:\p Column in \p Text, and the line's text.
static std::pair<unsigned, std::string>
offsetOf(llvm::StringRef Text, unsigned Line, unsigned Column) {
  size_t Start = 0;
  for (unsigned L = 1; L < Line && Start != llvm::StringRef::npos; ++L) {
    Start = Text.find('\n', Start);
    if (Start != llvm::StringRef::npos)
      ++Start;
  }
  if (Start == llvm::StringRef::npos)
    return {0, ""};
  llvm::StringRef Rest = Text.drop_front(Start);
  llvm::StringRef LineText = Rest.take_until([](char C) { return C == '\n'; });
  unsigned Col = Column ? Column - 1 : 0;
  if (Col > LineText.size())
    Col = LineText.size();
  return {static_cast<unsigned>(Start + Col), LineText.str()};
}

std::optional<FileLocation>
RuntimeTraceJoin::localLocation(const SourceLocation &L,
                                llvm::ArrayRef<std::string> AnalysedFiles,
                                std::string *LineText) const {
  if (!L.known())
    return std::nullopt;
  std::string Local;
  for (const std::string &File : AnalysedFiles)
    if (sameFile(L.File, File))
      Local = File;
  // A header of the program: where it is, under the source root.
  if (Local.empty() && llvm::sys::fs::exists(L.File) &&
      isPathUnder(normalized(L.File), SourceRoot))
    Local = normalized(L.File);
  if (Local.empty())
    return std::nullopt;
  FileLocation Out;
  Out.File = Local;
  Out.Line = L.Line;
  Out.Column = L.Column;
  if (auto Buffer = llvm::MemoryBuffer::getFile(Local, /*IsText=*/true)) {
    auto [Offset, Text] = offsetOf((*Buffer)->getBuffer(), L.Line, L.Column);
    Out.Offset = Offset;
    if (LineText)
      *LineText = std::move(Text);
  }
  return Out;
}

std::vector<ResolvedFinding>
RuntimeTraceJoin::uncovered(llvm::ArrayRef<std::string> AnalysedFiles,
                            size_t &Elsewhere) {
  std::vector<ResolvedFinding> Out;
  Elsewhere = 0;
  for (size_t I = 0; I < T.Findings.size(); ++I) {
    if (Covered.count(I))
      continue;
    const RuntimeFinding &R = T.Findings[I];
    ResolvedFinding F;
    std::string Line;
    std::optional<FileLocation> Loc =
        localLocation(R.Location, AnalysedFiles, &Line);
    if (!Loc) {
      ++Elsewhere;
      continue;
    }
    F.CheckId = R.CheckId;
    F.Loc = *Loc;
    keepLineText(Line, F);
    F.Message = R.Message + "; found at run time by cuda-async-trace";
    const std::string &Local = F.Loc.File;
    RenderedMessage M;
    M.File = Local;
    M.Offset = F.Loc.Offset;
    M.Message = F.Message;
    F.Messages.push_back(std::move(M));
    // Where the copy a race raced with was issued, as the note a static
    // finding would have.
    if (std::optional<FileLocation> Related =
            localLocation(R.Related, AnalysedFiles)) {
      F.Notes.push_back({*Related, R.RelatedMessage});
      RenderedMessage Note;
      Note.IsNote = true;
      Note.File = Related->File;
      Note.Offset = Related->Offset;
      Note.Message = R.RelatedMessage;
      F.Messages.push_back(std::move(Note));
    }
    RuntimeEvidence E;
    E.State = RuntimeEvidence::Status::FoundAtRunTime;
    E.Summary = R.Message;
    E.Trace = TracePath;
    E.Site = F.Loc;
    E.Calls = R.Calls;
    E.Bytes = R.Bytes;
    E.HostNs = R.HostNs;
    F.Runtime = std::move(E);
    Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace cuda_async_lint
