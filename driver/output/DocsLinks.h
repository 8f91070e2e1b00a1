//===- DocsLinks.h - Where reports link the check pages ---------*- C++ -*-===//
//
// Every report links each check's page (SARIF helpUri, Markdown, rdjson,
// HTML). By default those are the pages installed beside the tool
// (<prefix>/share/doc/cuda-async-lint/docs/checks/<id>.html, rendered at
// build time), as file URIs: they exist wherever the tool runs. --docs-url
// (or the build's CUDA_ASYNC_LINT_DOCS_URL) names a published copy of the
// repository's tree instead: <url>/docs/checks/<id>.md.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_DOCSLINKS_H
#define CUDA_ASYNC_LINT_DRIVER_DOCSLINKS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace cuda_async_lint {

struct DocsLinks {
  /// What the documentation's paths are appended to; ends with '/'.
  std::string BaseUri;
  /// Whether BaseUri is the installation's own copy, whose check pages are
  /// HTML; a published copy's are Markdown.
  bool Installed = false;
  /// The installation's documentation directory, whose rendered check pages
  /// the HTML report embeds (whatever BaseUri is).
  std::string InstalledDir;

  /// The page of check \p Id.
  std::string checkPage(llvm::StringRef Id) const;
};

/// \p DocsUrl (the option) if given, else \p BuildUrl if not empty, else
/// the documentation installed beside \p Executable (<prefix>/bin/x:
/// <prefix>/share/doc/cuda-async-lint/).
DocsLinks chooseDocsLinks(llvm::StringRef DocsUrl, llvm::StringRef BuildUrl,
                          llvm::StringRef Executable);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_DOCSLINKS_H
