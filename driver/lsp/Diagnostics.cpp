//===- Diagnostics.cpp ----------------------------------------------------===//

#include "Diagnostics.h"
#include "support/FileUri.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint::lsp {

namespace {

/// The protocol's DiagnosticSeverity.
enum Severity { Error = 1, Warning = 2, Information = 3 };

llvm::json::Object rangeJSON(llvm::StringRef Text, ByteRange R,
                             PositionEncoding E) {
  return llvm::json::Object{{"start", toJSON(positionOf(Text, R.Begin, E))},
                            {"end", toJSON(positionOf(Text, R.End, E))}};
}

/// Where clang's 1-based \p Line and \p Column (bytes; 0: the line's
/// start) are in \p Text.
Position clangPosition(llvm::StringRef Text, unsigned Line, unsigned Column,
                       PositionEncoding E) {
  std::optional<size_t> LineStart =
      offsetOf(Text, Position{Line - 1, 0}, PositionEncoding::UTF8);
  return LineStart ? positionOf(Text, *LineStart + (Column ? Column - 1 : 0), E)
                   : Position{Line - 1, 0};
}

/// A diagnostic of the tool's own, not a finding: Information at \p At.
llvm::json::Object information(Position At, std::string Message) {
  return llvm::json::Object{
      {"range", llvm::json::Object{{"start", toJSON(At)}, {"end", toJSON(At)}}},
      {"severity", int(Information)},
      {"source", "cuda-async-lint"},
      {"message", std::move(Message)}};
}

/// The identifier (or the one character) at \p Offset of \p Text.
ByteRange tokenAt(llvm::StringRef Text, size_t Offset) {
  Offset = std::min(Offset, Text.size());
  size_t End = Offset;
  while (End < Text.size() && (llvm::isAlnum(Text[End]) || Text[End] == '_'))
    ++End;
  if (End == Offset && End < Text.size() && Text[End] != '\n')
    ++End;
  return {Offset, End};
}

/// A note's place in a file other than the document: its line and column
/// as the analysis counted them (bytes), which is what a client can show.
llvm::json::Object notePlace(const ResolvedNote &N) {
  Position P{N.Loc.Line ? N.Loc.Line - 1 : 0,
             N.Loc.Column ? N.Loc.Column - 1 : 0};
  return llvm::json::Object{
      {"uri", fileUri(N.Loc.File)},
      {"range", llvm::json::Object{{"start", toJSON(P)}, {"end", toJSON(P)}}}};
}

} // namespace

ByteRange findingRange(const ResolvedFinding &F, llvm::StringRef Text) {
  // clang's highlighted range of the warning (the call), if it starts at
  // the finding on one line.
  if (!F.Messages.empty() && !F.Messages.front().IsNote)
    for (const auto &[Offset, Length] : F.Messages.front().Ranges)
      if (Offset == F.Loc.Offset && Length > 0 &&
          Offset + Length <= Text.size() &&
          !Text.substr(Offset, Length).contains('\n'))
        return {Offset, Offset + Length};
  return tokenAt(Text, F.Loc.Offset);
}

llvm::json::Object diagnosticOf(const ResolvedFinding &F, llvm::StringRef Text,
                                PositionEncoding E, const DocsLinks &Docs) {
  llvm::json::Object D{{"range", rangeJSON(Text, findingRange(F, Text), E)},
                       {"severity", int(F.IsError ? Error : Warning)},
                       {"code", F.CheckId},
                       {"source", "cuda-async-lint"},
                       {"message", F.Message}};
  if (llvm::StringRef(F.CheckId).starts_with("cuda-async-"))
    D["codeDescription"] =
        llvm::json::Object{{"href", Docs.checkPage(F.CheckId)}};
  llvm::json::Array Related;
  for (const ResolvedNote &N : F.Notes) {
    llvm::json::Object Place;
    if (N.Loc.File == F.Loc.File) {
      ByteRange R = tokenAt(Text, N.Loc.Offset);
      Place = llvm::json::Object{{"uri", fileUri(N.Loc.File)},
                                 {"range", rangeJSON(Text, R, E)}};
    } else {
      Place = notePlace(N);
    }
    Related.push_back(llvm::json::Object{{"location", std::move(Place)},
                                         {"message", N.Message}});
  }
  if (!Related.empty())
    D["relatedInformation"] = std::move(Related);
  return D;
}

llvm::json::Object uninstantiatedDiagnostic(
    const std::vector<std::pair<std::string, unsigned>> &Templates,
    llvm::StringRef Includer, llvm::StringRef Text, PositionEncoding E) {
  std::string Names;
  constexpr size_t Named = 4;
  for (size_t I = 0; I < Templates.size() && I < Named; ++I)
    Names += (I ? ", '" : "'") + Templates[I].first + "'";
  if (Templates.size() > Named)
    Names += llvm::formatv(" and {0} more", Templates.size() - Named).str();
  std::string Message =
      "cuda-async-lint analysed this header through '" +
      llvm::sys::path::filename(Includer).str() +
      "', which instantiates none of " + Names +
      ": the checks analyse a template's code in its instantiations, so "
      "this code was not checked; open a file that uses " +
      (Templates.size() == 1 ? "it" : "them") +
      " to analyse the header through that file";
  return information(
      clangPosition(Text, std::max(Templates.front().second, 1u), 0, E),
      std::move(Message));
}

llvm::json::Object failureDiagnostic(const FailedFile &Failure,
                                     llvm::StringRef File, llvm::StringRef Text,
                                     PositionEncoding E) {
  // The first "FILE:LINE:COL: error: ..." of clang's errors that names the
  // document places the diagnostic; the message keeps the first lines.
  Position At;
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Failure.Errors).split(Lines, '\n', -1, false);
  for (llvm::StringRef Line : Lines) {
    if (!Line.starts_with(File) || !Line.contains(": error: "))
      continue;
    llvm::StringRef Rest = Line.drop_front(File.size());
    unsigned L = 0, C = 0;
    if (Rest.consume_front(":") && !Rest.consumeInteger(10, L) &&
        Rest.consume_front(":") && !Rest.consumeInteger(10, C) && L > 0) {
      At = clangPosition(Text, L, C, E);
      break;
    }
  }
  std::string Message =
      "cuda-async-lint did not analyse this file: " + Failure.Reason;
  size_t Shown = 0;
  for (llvm::StringRef Line : Lines) {
    if (Shown == 3)
      break;
    Message += "\n" + Line.take_front(300).str();
    ++Shown;
  }
  return information(At, std::move(Message));
}

std::optional<llvm::json::Object>
quickFixOf(const ResolvedFinding &F, llvm::json::Object Diagnostic,
           llvm::StringRef Uri, llvm::StringRef Text, PositionEncoding E) {
  llvm::json::Array Edits;
  for (const ResolvedFix &Fix : F.Fixes) {
    if (Fix.Begin.File != F.Loc.File || Fix.End.Offset < Fix.Begin.Offset ||
        Fix.End.Offset > Text.size())
      return std::nullopt;
    Edits.push_back(llvm::json::Object{
        {"range", rangeJSON(Text, {Fix.Begin.Offset, Fix.End.Offset}, E)},
        {"newText", Fix.Replacement}});
  }
  if (Edits.empty())
    return std::nullopt;
  llvm::json::Object Changes;
  Changes[Uri] = std::move(Edits);
  return llvm::json::Object{
      {"title", "Apply the fix of " + F.CheckId},
      {"kind", "quickfix"},
      {"isPreferred", true},
      {"diagnostics", llvm::json::Array{std::move(Diagnostic)}},
      {"edit", llvm::json::Object{{"changes", std::move(Changes)}}}};
}

} // namespace cuda_async_lint::lsp
