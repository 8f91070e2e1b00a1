//===- DocsLinks.h - Where reports link the check pages ---------*- C++ -*-===//
//
// Reports link each check's page (SARIF helpUri, Markdown, rdjson, HTML)
// where the documentation is published: --docs-url (or the build's
// CUDA_ASYNC_LINT_DOCS_URL) names a copy of the repository's tree,
// <url>/docs/checks/<id>.md; the GitHub Action passes the repository and
// version it runs from. Without one, the only copy is the one installed
// beside the tool (<prefix>/share/doc/cuda-async-lint/), on the disk of the
// machine that ran it: a report meant to leave that machine (SARIF,
// Markdown, rdjson, HTML, Code Climate) then links nothing there and
// carries the documentation itself (SARIF's rules[].help, the HTML report's
// embedded pages) instead of file:// links that would be dead elsewhere.
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

  /// The project's home page (the build's CUDA_ASYNC_LINT_HOMEPAGE).
  std::string Homepage;

  /// Whether links to BaseUri may go into a report: a published copy, or a
  /// file:// one the user asked for with --docs-url.
  bool Linkable() const { return !Installed; }

  /// The page of check \p Id.
  std::string checkPage(llvm::StringRef Id) const;
  /// \p Path (relative to the repository root) where it is published; empty
  /// where nothing may be linked (Linkable).
  std::string published(llvm::StringRef Path) const;
};

/// \p DocsUrl (the option) if given, else \p BuildUrl if not empty, else
/// the documentation installed beside \p Executable (<prefix>/bin/x:
/// <prefix>/share/doc/cuda-async-lint/).
DocsLinks chooseDocsLinks(llvm::StringRef DocsUrl, llvm::StringRef BuildUrl,
                          llvm::StringRef Executable);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_DOCSLINKS_H
