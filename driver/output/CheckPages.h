//===- CheckPages.h - The check pages an HTML report embeds -----*- C++ -*-===//
//
// The HTML report is one self-contained file, often read far from the
// machine that wrote it (a CI artifact): it carries the pages of the checks
// it reports, rendered at build time (scripts/check-pages.py) and installed
// with the tool, and links them in the page.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CHECKPAGES_H
#define CUDA_ASYNC_LINT_DRIVER_CHECKPAGES_H

#include "DocsLinks.h"
#include "llvm/ADT/ArrayRef.h"
#include <map>
#include <string>

namespace cuda_async_lint {

/// The in-page anchor of check \p Id's embedded page.
std::string checkPageAnchor(llvm::StringRef Id);

/// The bodies of the installed pages of \p Ids (those that can be read), by
/// id, with their links made to work inside the report: a link to another
/// page embedded goes to its anchor, to a page not embedded to
/// Docs.checkPage(), and any other relative link is resolved against the
/// check pages' directory of Docs.BaseUri.
std::map<std::string, std::string>
embeddableCheckPages(const DocsLinks &Docs, llvm::ArrayRef<std::string> Ids);

/// Check \p Id's page in Markdown, as installed with the tool, for a report
/// to carry (SARIF's rules[].help.markdown): each relative link made
/// absolute against the published documentation, or, where none is
/// (DocsLinks::Linkable), turned into its text. Empty if it cannot be read.
std::string checkPageMarkdown(const DocsLinks &Docs, llvm::StringRef Id);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CHECKPAGES_H
