//===- Diagnostics.h - Findings as LSP diagnostics and quick fixes -*- C++ -*-//
//
// A finding becomes a Diagnostic over the text it was found in: its range
// the call clang highlighted (else the token at its location), its code the
// check's id with a link to the check's page, its notes related places, and
// its fix-its a quick-fix code action. A file the analysis could not take
// gets one diagnostic saying why, at its first error where that is known.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_LSP_DIAGNOSTICS_H
#define CUDA_ASYNC_LINT_DRIVER_LSP_DIAGNOSTICS_H

#include "Positions.h"
#include "output/DocsLinks.h"
#include "report/Report.h"
#include "llvm/Support/JSON.h"

namespace cuda_async_lint::lsp {

/// The byte range [Begin, End) a finding covers in its file.
struct ByteRange {
  size_t Begin = 0, End = 0;
};
/// What \p F covers in \p Text, the text of its file as analysed.
ByteRange findingRange(const ResolvedFinding &F, llvm::StringRef Text);

/// \p F as a Diagnostic of the document \p Uri, whose analysed text is
/// \p Text; notes in other files point at them by their URIs (their
/// positions counted in bytes from the files as they are on disk).
llvm::json::Object diagnosticOf(const ResolvedFinding &F, llvm::StringRef Text,
                                PositionEncoding E, const DocsLinks &Docs);

/// The Information diagnostic on a header analysed through \p Includer
/// that instantiates none of \p Templates (name, line): their code was not
/// analysed, which is why nothing shows on it. At the first of them.
llvm::json::Object uninstantiatedDiagnostic(
    const std::vector<std::pair<std::string, unsigned>> &Templates,
    llvm::StringRef Includer, llvm::StringRef Text, PositionEncoding E);

/// One diagnostic for a file that was not analysed: \p Failure's reason and
/// its first errors, at the first error's line in \p File where the errors
/// name it.
llvm::json::Object failureDiagnostic(const FailedFile &Failure,
                                     llvm::StringRef File, llvm::StringRef Text,
                                     PositionEncoding E);

/// The quick fix of \p F, applying its fix-its to the document \p Uri
/// (whose analysed text is \p Text); none if it has no fix in that file.
std::optional<llvm::json::Object>
quickFixOf(const ResolvedFinding &F, llvm::json::Object Diagnostic,
           llvm::StringRef Uri, llvm::StringRef Text, PositionEncoding E);

} // namespace cuda_async_lint::lsp

#endif // CUDA_ASYNC_LINT_DRIVER_LSP_DIAGNOSTICS_H
