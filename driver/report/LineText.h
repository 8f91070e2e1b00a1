//===- LineText.h - What a finding keeps of its line ------------*- C++ -*-===//
//
// A finding keeps its line's text for fingerprints that survive line moves
// (Fingerprints.h). Generated and minified code puts thousands of findings
// on one line of hundreds of kilobytes: each keeps a window of it from its
// own column, not a copy of the whole line, so that what the worker sends,
// the cache stores and the fingerprints hash grows with the findings, not
// with findings times the line's length.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_REPORT_LINETEXT_H
#define CUDA_ASYNC_LINT_DRIVER_REPORT_LINETEXT_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace cuda_async_lint {

/// The longest line a finding keeps whole: clang's own snippets stop at
/// 4,096 characters too.
constexpr size_t MaxLineText = 4096;

/// What a finding at \p Column (1-based) keeps of \p Line: the line, or
/// MaxLineText characters from the column on a longer line. \p From is set
/// to the column the text begins at.
std::string boundedLineText(llvm::StringRef Line, unsigned Column,
                            unsigned &From);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_REPORT_LINETEXT_H
