//===- ParseErrors.h - clang's errors, as a failed file shows them -*- C++ -*-//

#ifndef CUDA_ASYNC_LINT_DRIVER_PARSEERRORS_H
#define CUDA_ASYNC_LINT_DRIVER_PARSEERRORS_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <string>
#include <vector>

namespace cuda_async_lint {

/// A string stream that keeps only its first \p Limit bytes. clang renders
/// some diagnostics without end (the snippet of an error after `#line 0`
/// runs over four billion lines): the time limit stops such a file, and
/// this keeps it from taking the memory first. Of a run of "In file
/// included from" lines (an include cycle prints hundreds, before the error
/// they lead to) the first few are kept and the rest counted, so that the
/// error itself fits.
class BoundedStringStream : public llvm::raw_ostream {
public:
  BoundedStringStream(std::string &Out, size_t Limit);
  bool truncated() const { return Written > Limit; }

  static constexpr unsigned IncludeLinesKept = 4;

private:
  void write_impl(const char *Ptr, size_t Size) override;
  uint64_t current_pos() const override { return Written; }
  void append(llvm::StringRef Line);

  std::string &Out;
  size_t Limit;
  uint64_t Written = 0;
  std::string Line;
  unsigned IncludeRun = 0;
};

/// \p Text with each line longer than \p MaxLineBytes cut there (at a
/// character boundary) and ended with "[N bytes not shown]".
std::string capLines(llvm::StringRef Text, size_t MaxLineBytes);

/// One diagnostic the collector kept: an error, or a diagnostic clang
/// makes an error by default that was downgraded because nvcc's compilers
/// accept it (NvccAcceptedErrors.h).
struct ParseDiagnostic {
  unsigned ID = 0;
  /// Invalid for a diagnostic without a location ("too many errors").
  clang::SourceLocation Loc;
  /// The ranges it highlights, and where its notes point.
  std::vector<clang::CharSourceRange> Ranges;
  std::vector<clang::SourceLocation> NoteLocs;
  /// Each note's diagnostic, in the order they came.
  std::vector<unsigned> NoteIDs;
  /// Downgraded below an error before the parse: the parse went on as if
  /// it were a warning.
  bool Downgraded = false;
  /// Its rendering with its notes, in the collector's text.
  size_t TextBegin = 0, TextEnd = 0;
};

/// Keeps clang's errors, and the diagnostics downgraded from errors
/// (rendered as the errors clang would have reported), and drops its
/// warnings: the tool reports its own findings, not the compiler's.
class ParseErrorCollector : public clang::DiagnosticConsumer {
public:
  /// What a CI log can show: the first errors, in lines of at most
  /// MaxColumns columns (MaxLineBytes bytes) and MaxTextBytes in all.
  static constexpr unsigned MaxShown = 3;
  static constexpr unsigned MaxColumns = 200;
  static constexpr size_t MaxLineBytes = 1024;
  static constexpr size_t MaxTextBytes = 16 * 1024;

  /// \p IsDowngraded tells the diagnostics below error that were
  /// downgraded from one (none if null).
  explicit ParseErrorCollector(
      std::function<bool(unsigned)> IsDowngraded = nullptr);

  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

  unsigned errors() const { return Errors; }
  /// The errors and the downgraded diagnostics, in the order clang
  /// reported them.
  const std::vector<ParseDiagnostic> &diagnostics() const {
    return Diagnostics;
  }
  /// Where each error is (invalid for an error without a location).
  std::vector<clang::SourceLocation> locations() const;
  /// Each error's diagnostic ID, in the order of locations().
  std::vector<unsigned> ids() const;
  /// The rendered errors, and how many more there were.
  std::string text() const;
  /// The rendering of \p D, one of diagnostics(), with its notes.
  std::string textOf(const ParseDiagnostic &D) const;
  /// The rendered diagnostics, downgraded ones and errors alike (those of
  /// a file analysed although clang rejects some of it), and how many
  /// more there were.
  std::string allText() const;

private:
  std::string render(bool ErrorsOnly) const;

  std::string Text;
  BoundedStringStream OS;
  clang::DiagnosticOptions Options;
  clang::TextDiagnosticPrinter Printer;
  std::function<bool(unsigned)> IsDowngraded;
  unsigned Errors = 0;
  bool ShowingNotes = false;
  std::vector<ParseDiagnostic> Diagnostics;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_PARSEERRORS_H
