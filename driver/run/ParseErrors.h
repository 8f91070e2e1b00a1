//===- ParseErrors.h - clang's errors, as a failed file shows them -*- C++ -*-//

#ifndef CUDA_ASYNC_LINT_DRIVER_PARSEERRORS_H
#define CUDA_ASYNC_LINT_DRIVER_PARSEERRORS_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace cuda_async_lint {

/// A string stream that keeps only its first \p Limit bytes. clang renders
/// some diagnostics without end (the snippet of an error after `#line 0`
/// runs over four billion lines): the time limit stops such a file, and
/// this keeps it from taking the memory first.
class BoundedStringStream : public llvm::raw_ostream {
public:
  BoundedStringStream(std::string &Out, size_t Limit);
  bool truncated() const { return Written > Limit; }

private:
  void write_impl(const char *Ptr, size_t Size) override;
  uint64_t current_pos() const override { return Written; }

  std::string &Out;
  size_t Limit;
  uint64_t Written = 0;
};

/// \p Text with each line longer than \p MaxLineBytes cut there (at a
/// character boundary) and ended with "[N bytes not shown]".
std::string capLines(llvm::StringRef Text, size_t MaxLineBytes);

/// Keeps clang's errors (the first few, rendered) and drops its warnings:
/// the tool reports its own findings, not the compiler's.
class ParseErrorCollector : public clang::DiagnosticConsumer {
public:
  /// What a CI log can show: the first errors, in lines of at most
  /// MaxColumns columns (MaxLineBytes bytes) and MaxTextBytes in all.
  static constexpr unsigned MaxShown = 3;
  static constexpr unsigned MaxColumns = 200;
  static constexpr size_t MaxLineBytes = 1024;
  static constexpr size_t MaxTextBytes = 16 * 1024;

  ParseErrorCollector();

  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

  unsigned errors() const { return Errors; }
  /// Where each error is (invalid for an error without a location).
  const std::vector<clang::SourceLocation> &locations() const {
    return Locations;
  }
  /// Each error's diagnostic ID, in the order of locations().
  const std::vector<unsigned> &ids() const { return IDs; }
  /// The rendered errors, and how many more there were.
  std::string text();

private:
  std::string Text;
  BoundedStringStream OS;
  clang::DiagnosticOptions Options;
  clang::TextDiagnosticPrinter Printer;
  unsigned Errors = 0;
  bool ShowingNotes = false;
  std::vector<clang::SourceLocation> Locations;
  std::vector<unsigned> IDs;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_PARSEERRORS_H
