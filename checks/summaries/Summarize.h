//===- Summarize.h - One translation unit's summary -------------*- C++ -*-===//
//
// The first phase of a whole-program run: what one translation unit tells
// the others (ProgramSummaries.h), as the JSON object the store holds.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_SUMMARIES_SUMMARIZE_H
#define CUDA_ASYNC_LINT_SUMMARIES_SUMMARIZE_H

#include "../analysis/provenance/ProvenanceLattice.h"
#include "clang/Basic/FileEntry.h"
#include "llvm/Support/JSON.h"

namespace clang {
class ASTContext;
class Decl;
class FunctionDecl;
class SourceManager;
} // namespace clang

namespace cuda_async_lint {

/// The summary of the translation unit of \p Ctx, with the provenance
/// analysis its checks use (so the same project APIs).
llvm::json::Object summarizeTranslationUnit(clang::ASTContext &Ctx);

/// A file's name across translation units and runs: its real path (else
/// its name made absolute).
std::string realPathOf(clang::FileEntryRef File);

/// The real path of the main file: a unit's name in the store.
std::string unitFile(const clang::SourceManager &SM);

/// \p O as other translation units see it: where, the note that describes
/// it as memory of kind \p K, and its releaser.
ExternalOrigin externalOrigin(Origin O, MemoryKind K,
                              const clang::SourceManager &SM);

/// The key of \p O across translation units (ExternalOrigin::key).
std::string originKey(Origin O, const clang::SourceManager &SM);

/// clang's USR of \p D, or empty if it has none.
std::string usrOf(const clang::Decl *D);

/// Whether \p FD's pointer parameters may take what every call site of the
/// program passes: external linkage, so its calls may be in any unit; not a
/// template, virtual, variadic or main; not exported from a shared library
/// (dllexport, visibility("default") written out), whose callers the
/// program does not hold; with a pointer parameter. Whether it branches on
/// a flag, and whether every unit only calls it, the analysis adds.
bool takesProgramCallSites(const clang::FunctionDecl *FD);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_SUMMARIES_SUMMARIZE_H
