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
    : OS(Text, MaxTextBytes), Printer(OS, Options) {}

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
    ShowingNotes = ++Errors <= MaxShown;
    if (ShowingNotes)
      Printer.HandleDiagnostic(Level, Info);
  } else if (Level == DiagnosticsEngine::Note && ShowingNotes) {
    Printer.HandleDiagnostic(Level, Info);
  } else if (Level != DiagnosticsEngine::Note) {
    ShowingNotes = false;
  }
}

std::string ParseErrorCollector::text() {
  std::string Out = Text;
  if (OS.truncated())
    Out += "\n[the rest of clang's errors: more than " +
           std::to_string(MaxTextBytes / 1024) + " KiB, not shown]\n";
  if (Errors > MaxShown)
    Out += std::to_string(Errors - MaxShown) + " more error(s) not shown\n";
  return Out;
}

} // namespace cuda_async_lint
