//===- LineFilter.cpp -----------------------------------------------------===//

#include "LineFilter.h"
#include "support/PathComponents.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

llvm::Expected<LineFilter> LineFilter::parse(llvm::StringRef Json) {
  auto Fail = [&](const std::string &Why) {
    return llvm::createStringError("--line-filter: %s (expected "
                                   "[{\"name\":\"file.cu\",\"lines\":[[1,3]]}"
                                   ", ...])",
                                   Why.c_str());
  };
  llvm::Expected<llvm::json::Value> Doc = llvm::json::parse(Json);
  if (!Doc)
    return Fail(llvm::toString(Doc.takeError()));
  const llvm::json::Array *List = Doc->getAsArray();
  if (!List)
    return Fail("not a JSON array");
  LineFilter F;
  F.Active = true;
  for (const llvm::json::Value &V : *List) {
    const llvm::json::Object *O = V.getAsObject();
    std::optional<llvm::StringRef> Name =
        O ? O->getString("name") : std::nullopt;
    if (!Name || Name->empty())
      return Fail("an entry without a \"name\"");
    Entry E{Name->str(), {}};
    if (const llvm::json::Value *Lines = O->get("lines")) {
      const llvm::json::Array *Ranges = Lines->getAsArray();
      if (!Ranges)
        return Fail("\"lines\" of '" + E.Name + "' is not an array");
      for (const llvm::json::Value &R : *Ranges) {
        const llvm::json::Array *Pair = R.getAsArray();
        std::optional<int64_t> First, Last;
        if (Pair && Pair->size() == 2) {
          First = (*Pair)[0].getAsInteger();
          Last = (*Pair)[1].getAsInteger();
        }
        if (!First || !Last || *First < 1 || *Last < *First)
          return Fail("a range of '" + E.Name +
                      "' is not [first, last] with 1 <= first <= last");
        E.Ranges.emplace_back(unsigned(*First), unsigned(*Last));
      }
    }
    F.Entries.push_back(std::move(E));
  }
  return F;
}

LineFilter LineFilter::fromUnifiedDiff(llvm::StringRef Diff,
                                       llvm::StringRef Root) {
  LineFilter F;
  F.Active = true;
  Entry *Current = nullptr;
  llvm::SmallVector<llvm::StringRef> Lines;
  Diff.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    if (L.consume_front("+++ ")) {
      Current = nullptr;
      if (!L.consume_front("b/")) // "/dev/null": the file was deleted.
        continue;
      llvm::SmallString<256> Path(Root);
      llvm::sys::path::append(Path, L.rtrim("\r"));
      F.Entries.push_back({std::string(Path), {}});
      Current = &F.Entries.back();
      continue;
    }
    // "@@ -a[,b] +c[,d] @@": lines c .. c+d-1 are new (d = 1 if omitted).
    if (!Current || !L.consume_front("@@ "))
      continue;
    llvm::StringRef New = L.split(' ').second.split(' ').first;
    if (!New.consume_front("+"))
      continue;
    auto [StartText, CountText] = New.split(',');
    unsigned Start = 0, Count = 1;
    if (StartText.getAsInteger(10, Start) ||
        (!CountText.empty() && CountText.getAsInteger(10, Count)))
      continue;
    if (Count > 0)
      Current->Ranges.emplace_back(Start, Start + Count - 1);
  }
  // A file whose hunks only delete lines has nothing to report on.
  llvm::erase_if(F.Entries, [](const Entry &E) { return E.Ranges.empty(); });
  return F;
}

bool LineFilter::passes(llvm::StringRef File, unsigned Line) const {
  if (!Active)
    return true;
  for (const Entry &E : Entries) {
    // A name matches whole path components: "a.cu" is not "data.cu".
    if (!pathEndsWith(File, E.Name))
      continue;
    if (E.Ranges.empty())
      return true;
    for (auto [First, Last] : E.Ranges)
      if (Line >= First && Line <= Last)
        return true;
  }
  return false;
}

} // namespace cuda_async_lint
