//===- CheckPages.cpp -----------------------------------------------------===//

#include "CheckPages.h"
#include "Output.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

std::string checkPageAnchor(llvm::StringRef Id) { return "check-" + Id.str(); }

namespace {

/// The part of a rendered page between <main> and </main>.
std::optional<std::string> readBody(const DocsLinks &Docs, llvm::StringRef Id) {
  llvm::SmallString<256> Path(Docs.InstalledDir);
  llvm::sys::path::append(Path, "docs", "checks", Id + ".html");
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return std::nullopt;
  llvm::StringRef Page = (*Buffer)->getBuffer();
  size_t Begin = Page.find("<main>"), End = Page.rfind("</main>");
  if (Begin == llvm::StringRef::npos || End == llvm::StringRef::npos ||
      End < Begin)
    return std::nullopt;
  return Page.slice(Begin + 6, End).ltrim('\n').str();
}

/// A link that goes where it says wherever the report is read: another
/// site, an anchor of the page, a mail address.
bool isAbsoluteLink(llvm::StringRef Href) {
  return Href.starts_with("#") || Href.contains("://") ||
         Href.starts_with("mailto:");
}

/// Where a link of a check page goes once the page is embedded: \p Href and
/// the result as they stand in the attribute (HTML-escaped).
/// Empty where the target is not published (DocsLinks::Linkable): the
/// caller drops the link, keeping its text.
std::string resolve(llvm::StringRef Href, const DocsLinks &Docs,
                    const std::map<std::string, std::string> &Embedded) {
  if (isAbsoluteLink(Href))
    return Href.str();
  llvm::StringRef Target = Href.split('#').first;
  if (Target.starts_with("cuda-async-") && Target.ends_with(".html") &&
      !Target.contains('/')) {
    llvm::StringRef Id = Target.drop_back(5);
    if (Embedded.count(Id.str()))
      return escapeHtml("#" + checkPageAnchor(Id));
    return Docs.Linkable() ? escapeHtml(Docs.checkPage(Id)) : std::string();
  }
  std::string Pages = Docs.published("docs/checks/");
  return Pages.empty() ? "" : escapeHtml(Pages) + Href.str();
}

} // namespace

std::map<std::string, std::string>
embeddableCheckPages(const DocsLinks &Docs, llvm::ArrayRef<std::string> Ids) {
  std::map<std::string, std::string> Pages;
  for (const std::string &Id : Ids)
    if (std::optional<std::string> Body = readBody(Docs, Id))
      Pages[Id] = std::move(*Body);
  // cmark-gfm writes every link as href="...", its value HTML-escaped.
  for (auto &[Id, Body] : Pages) {
    std::string Out;
    llvm::StringRef Rest = Body;
    for (size_t At; (At = Rest.find("href=\"")) != llvm::StringRef::npos;) {
      Out += Rest.take_front(At);
      Rest = Rest.drop_front(At + 6);
      size_t End = Rest.find('"');
      // A target that is not published loses its href: '<a>text</a>'.
      if (std::string To = resolve(Rest.take_front(End), Docs, Pages);
          !To.empty())
        Out += "href=\"" + To + "\"";
      else
        Out = llvm::StringRef(Out).rtrim(' ').str();
      Rest =
          Rest.drop_front(End == llvm::StringRef::npos ? Rest.size() : End + 1);
    }
    Body = Out + Rest.str();
  }
  return Pages;
}

std::string checkPageMarkdown(const DocsLinks &Docs, llvm::StringRef Id) {
  llvm::SmallString<256> Path(Docs.InstalledDir);
  llvm::sys::path::append(Path, "docs", "checks", Id + ".md");
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return "";
  // '[text](target)': a relative target is resolved or dropped.
  llvm::StringRef Rest = (*Buffer)->getBuffer();
  std::string Out;
  for (size_t At; (At = Rest.find("](")) != llvm::StringRef::npos;) {
    size_t Open = Rest.take_front(At).rfind('[');
    size_t Close = Rest.find(')', At);
    if (Open == llvm::StringRef::npos || Close == llvm::StringRef::npos) {
      Out += Rest.take_front(At + 2);
      Rest = Rest.drop_front(At + 2);
      continue;
    }
    llvm::StringRef Text = Rest.slice(Open + 1, At);
    llvm::StringRef Target = Rest.slice(At + 2, Close);
    Out += Rest.take_front(Open);
    std::string Pages = Docs.published("docs/checks/");
    if (isAbsoluteLink(Target))
      Out += ("[" + Text + "](" + Target + ")").str();
    else if (!Pages.empty())
      Out += ("[" + Text + "](" + Pages + Target + ")").str();
    else
      Out += Text.str();
    Rest = Rest.drop_front(Close + 1);
  }
  return Out + Rest.str();
}

} // namespace cuda_async_lint
