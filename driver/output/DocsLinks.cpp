//===- DocsLinks.cpp ------------------------------------------------------===//

#include "DocsLinks.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "support/FileUri.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

std::string DocsLinks::checkPage(llvm::StringRef Id) const {
  if (Installed)
    return BaseUri + "docs/checks/" + Id.str() + ".html";
  return BaseUri + checkDocPath(Id);
}

std::string DocsLinks::published(llvm::StringRef Path) const {
  return Linkable() ? BaseUri + Path.str() : std::string();
}

DocsLinks chooseDocsLinks(llvm::StringRef DocsUrl, llvm::StringRef BuildUrl,
                          llvm::StringRef Executable) {
  DocsLinks Links;
  llvm::SmallString<256> Dir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Executable)));
  llvm::sys::path::append(Dir, "share", "doc", "cuda-async-lint");
  Links.InstalledDir = std::string(Dir);
  llvm::StringRef Given = !DocsUrl.empty() ? DocsUrl : BuildUrl;
  if (Given.empty()) {
    Links.Installed = true;
    Links.BaseUri = fileUri(Links.InstalledDir);
  } else {
    Links.BaseUri = Given.str();
  }
  // A base without its final '/' would glue "docs/..." onto its last name.
  if (!llvm::StringRef(Links.BaseUri).ends_with("/"))
    Links.BaseUri += "/";
  return Links;
}

} // namespace cuda_async_lint
