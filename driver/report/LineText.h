//===- LineText.h - What a finding keeps of its line ------------*- C++ -*-===//
//
// A finding's fingerprint (Fingerprints.h) reads its line: the code from
// the finding's column and, for version 1, the whole line. The worker
// that has the line keeps only that: the code pointed at, and the line
// itself when it is of ordinary length. Generated and minified code puts
// thousands of findings on one line of hundreds of kilobytes, and what the
// worker sends, the cache stores and the fingerprints hash then grows with
// the findings, not with findings times the line's length.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_REPORT_LINETEXT_H
#define CUDA_ASYNC_LINT_DRIVER_REPORT_LINETEXT_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace cuda_async_lint {

struct ResolvedFinding;

/// The longest line kept or shown whole: clang's own snippets stop at
/// 4,096 characters too. Of a longer line, the fingerprints read that many
/// characters from the finding's column.
constexpr size_t MaxLineText = 4096;

/// What is read of \p Line from \p Column (1-based): \p Width characters
/// from the column, or from the line's start where the column is not on
/// the line. \p From is set to the column the text begins at.
llvm::StringRef lineFromColumn(llvm::StringRef Line, unsigned Column,
                               size_t Width, unsigned &From);

/// Sets \p F's PointedCode and LineText from \p Line, the line of its
/// location (F.Loc.Column must be set).
void keepLineText(llvm::StringRef Line, ResolvedFinding &F);

/// \p Text without whitespace.
std::string withoutSpaces(llvm::StringRef Text);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_REPORT_LINETEXT_H
