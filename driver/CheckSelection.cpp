//===- CheckSelection.cpp -------------------------------------------------===//

#include "CheckSelection.h"
#include "cuda-async-lint/CheckRegistry.h"

namespace cuda_async_lint {

llvm::Expected<CheckSelection> CheckSelection::parse(llvm::StringRef Text) {
  CheckSelection Selection;
  llvm::SmallVector<llvm::StringRef, 8> Items;
  Text.split(Items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Item : Items) {
    Item = Item.trim();
    if (Item.empty())
      continue;
    bool Positive = !Item.consume_front("-");
    std::string Pattern = "^";
    for (char C : Item)
      Pattern += C == '*' ? std::string(".*") : llvm::Regex::escape({&C, 1});
    Pattern += "$";
    auto Regex = std::make_shared<llvm::Regex>(Pattern);
    if (!Item.contains('*') &&
        llvm::none_of(allChecks(),
                      [&](const CheckInfo &Info) { return Info.Id == Item; }))
      return llvm::createStringError(
          "unknown check '%s' in --checks (see --list-checks)",
          Item.str().c_str());
    Selection.Globs.push_back({Positive, std::move(Regex)});
  }
  return Selection;
}

bool CheckSelection::isEnabled(llvm::StringRef CheckId) const {
  bool Enabled = false;
  for (const Glob &G : Globs)
    if (G.Pattern->match(CheckId))
      Enabled = G.Positive;
  return Enabled;
}

} // namespace cuda_async_lint
