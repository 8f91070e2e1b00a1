//===- ParseErrors.cpp ----------------------------------------------------===//

#include "ParseErrors.h"

using namespace clang;

namespace cuda_async_lint {

BoundedStringStream::BoundedStringStream(std::string &Out, size_t Limit)
    : raw_ostream(/*unbuffered=*/true), Out(Out), Limit(Limit) {}

void BoundedStringStream::append(llvm::StringRef Text) {
  if (Written < Limit)
    Out.append(Text.data(), std::min<uint64_t>(Text.size(), Limit - Written));
  Written += Text.size();
}

void BoundedStringStream::write_impl(const char *Ptr, size_t Size) {
  // Whole lines go out: clang ends each diagnostic with a newline.
  for (llvm::StringRef Rest(Ptr, Size); !Rest.empty();) {
    size_t End = Rest.find('\n');
    Line.append(Rest.data(),
                End == llvm::StringRef::npos ? Rest.size() : End + 1);
    if (End == llvm::StringRef::npos)
      break;
    Rest = Rest.drop_front(End + 1);
    bool Include = llvm::StringRef(Line).starts_with("In file included from ");
    if (!Include && IncludeRun > IncludeLinesKept)
      append("[" + std::to_string(IncludeRun - IncludeLinesKept) +
             " more 'In file included from' lines not shown]\n");
    IncludeRun = Include ? IncludeRun + 1 : 0;
    if (IncludeRun <= IncludeLinesKept)
      append(Line);
    Line.clear();
  }
}

ParseErrorCollector::ParseErrorCollector(
    std::function<bool(unsigned)> IsDowngraded)
    : OS(Text, MaxTextBytes), Printer(OS, Options),
      IsDowngraded(std::move(IsDowngraded)) {
  // A source line wider than this is shown by the part around the caret
  // (clang's TextDiagnostic picks it), and a longer message is wrapped: a
  // line of tabs or a minified file would otherwise print a caret line of
  // tens of kilobytes of spaces.
  Options.MessageLength = MaxColumns;
  // A diagnostic of a warning group says which ('[-Wnarrowing]'), as
  // clang's own driver shows it: those the tool tolerates are mostly such.
  Options.ShowOptionNames = true;
}

void ParseErrorCollector::BeginSourceFile(const LangOptions &LO,
                                          const Preprocessor *PP) {
  Printer.BeginSourceFile(LO, PP);
}

void ParseErrorCollector::EndSourceFile() { Printer.EndSourceFile(); }

void ParseErrorCollector::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                           const Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  bool Error = Level >= DiagnosticsEngine::Error;
  bool Downgraded = !Error && Level != DiagnosticsEngine::Note &&
                    IsDowngraded && IsDowngraded(Info.getID());
  if (Error || Downgraded) {
    ParseDiagnostic D;
    D.ID = Info.getID();
    D.Loc = Info.hasSourceManager() ? Info.getLocation() : SourceLocation();
    D.Ranges.assign(Info.getRanges().begin(), Info.getRanges().end());
    D.Downgraded = Downgraded;
    D.TextBegin = Text.size();
    // A downgraded diagnostic reads as the error clang would have made of
    // it: the report says clang rejects the code. Once the text is full,
    // nothing more is rendered (a pathological rendering costs time).
    if (!OS.truncated())
      Printer.HandleDiagnostic(Error ? Level : DiagnosticsEngine::Error, Info);
    D.TextEnd = Text.size();
    Diagnostics.push_back(std::move(D));
    Errors += Error;
    ShowingNotes = true;
  } else if (Level == DiagnosticsEngine::Note && ShowingNotes) {
    if (!OS.truncated())
      Printer.HandleDiagnostic(Level, Info);
    ParseDiagnostic &Last = Diagnostics.back();
    if (Info.hasSourceManager())
      Last.NoteLocs.push_back(Info.getLocation());
    Last.NoteIDs.push_back(Info.getID());
    Last.TextEnd = Text.size();
  } else if (Level != DiagnosticsEngine::Note) {
    ShowingNotes = false;
  }
}

std::vector<SourceLocation> ParseErrorCollector::locations() const {
  std::vector<SourceLocation> Out;
  for (const ParseDiagnostic &D : Diagnostics)
    if (!D.Downgraded)
      Out.push_back(D.Loc);
  return Out;
}

std::vector<unsigned> ParseErrorCollector::ids() const {
  std::vector<unsigned> Out;
  for (const ParseDiagnostic &D : Diagnostics)
    if (!D.Downgraded)
      Out.push_back(D.ID);
  return Out;
}

std::string capLines(llvm::StringRef Text, size_t MaxLineBytes) {
  std::string Out;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    if (Line.size() <= MaxLineBytes) {
      Out += Line;
    } else {
      // Cut at a character boundary: a UTF-8 continuation byte is 10xxxxxx.
      size_t Cut = MaxLineBytes;
      while (Cut > 0 && (static_cast<unsigned char>(Line[Cut]) & 0xC0) == 0x80)
        --Cut;
      Out += Line.take_front(Cut);
      Out += " [" + std::to_string(Line.size() - Cut) + " bytes not shown]";
    }
    if (Text.size() > Line.size())
      Out += '\n';
    Text = Rest;
  }
  return Out;
}

std::string ParseErrorCollector::render(bool ErrorsOnly) const {
  std::string Shown;
  unsigned Count = 0;
  size_t ShownEnd = 0;
  for (const ParseDiagnostic &D : Diagnostics) {
    if (ErrorsOnly && D.Downgraded)
      continue;
    if (++Count > MaxShown)
      continue;
    Shown += llvm::StringRef(Text).slice(D.TextBegin, D.TextEnd).str();
    ShownEnd = D.TextEnd;
  }
  // What clang's selection and wrapping leave too long (one word wider than
  // MaxColumns, a wide character per column) is cut.
  std::string Out = capLines(Shown, MaxLineBytes);
  // The bytes clang wrote past the limit are gone: say so where what is
  // shown reached it.
  if (OS.truncated() && ShownEnd >= Text.size())
    Out += "\n[the rest of clang's errors: more than " +
           std::to_string(MaxTextBytes / 1024) + " KiB, not shown]\n";
  if (Count > MaxShown)
    Out += std::to_string(Count - MaxShown) + " more error(s) not shown\n";
  return Out;
}

std::string ParseErrorCollector::textOf(const ParseDiagnostic &D) const {
  return capLines(llvm::StringRef(Text).slice(D.TextBegin, D.TextEnd),
                  MaxLineBytes);
}

std::string ParseErrorCollector::text() const {
  return render(/*ErrorsOnly=*/true);
}

std::string ParseErrorCollector::allText() const {
  return render(/*ErrorsOnly=*/false);
}

} // namespace cuda_async_lint
