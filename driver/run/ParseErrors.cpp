//===- ParseErrors.cpp ----------------------------------------------------===//

#include "ParseErrors.h"

using namespace clang;

namespace cuda_async_lint {

BoundedStringStream::BoundedStringStream(std::string &Out, size_t Limit)
    : raw_ostream(/*unbuffered=*/true), Out(Out), Limit(Limit) {}

void BoundedStringStream::write_impl(const char *Ptr, size_t Size) {
  if (Written < Limit)
    Out.append(Ptr, std::min<uint64_t>(Size, Limit - Written));
  Written += Size;
}

ParseErrorCollector::ParseErrorCollector()
    : OS(Text, MaxTextBytes), Printer(OS, Options) {
  // A source line wider than this is shown by the part around the caret
  // (clang's TextDiagnostic picks it), and a longer message is wrapped: a
  // line of tabs or a minified file would otherwise print a caret line of
  // tens of kilobytes of spaces.
  Options.MessageLength = MaxColumns;
}

void ParseErrorCollector::BeginSourceFile(const LangOptions &LO,
                                          const Preprocessor *PP) {
  Printer.BeginSourceFile(LO, PP);
}

void ParseErrorCollector::EndSourceFile() { Printer.EndSourceFile(); }

void ParseErrorCollector::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                           const Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  if (Level >= DiagnosticsEngine::Error) {
    Locations.push_back(Info.hasSourceManager() ? Info.getLocation()
                                                : SourceLocation());
    IDs.push_back(Info.getID());
    ShowingNotes = ++Errors <= MaxShown;
    if (ShowingNotes)
      Printer.HandleDiagnostic(Level, Info);
  } else if (Level == DiagnosticsEngine::Note && ShowingNotes) {
    Printer.HandleDiagnostic(Level, Info);
  } else if (Level != DiagnosticsEngine::Note) {
    ShowingNotes = false;
  }
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

std::string ParseErrorCollector::text() {
  // What clang's selection and wrapping leave too long (one word wider than
  // MaxColumns, a wide character per column) is cut.
  std::string Out = capLines(Text, MaxLineBytes);
  if (OS.truncated())
    Out += "\n[the rest of clang's errors: more than " +
           std::to_string(MaxTextBytes / 1024) + " KiB, not shown]\n";
  if (Errors > MaxShown)
    Out += std::to_string(Errors - MaxShown) + " more error(s) not shown\n";
  return Out;
}

} // namespace cuda_async_lint
