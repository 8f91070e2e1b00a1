//===- CheckNames.cpp -----------------------------------------------------===//

#include "cuda-async-lint/CheckNames.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "llvm/ADT/STLExtras.h"

namespace cuda_async_lint {

namespace {

constexpr llvm::StringLiteral OurPrefix = "cuda-async-";

/// Whether the glob \p Glob (clang-tidy's syntax: only '*' is special)
/// matches check id \p Id. clang-tidy's GlobList does this in the driver;
/// the core includes nothing of clang-tidy (scripts/check-layers.py).
bool matches(llvm::StringRef Glob, llvm::StringRef Id) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Glob.split(Parts, '*');
  if (Parts.size() == 1)
    return Glob == Id;
  if (!Id.consume_front(Parts.front()))
    return false;
  for (size_t I = 1; I + 1 < Parts.size(); ++I) {
    size_t At = Id.find(Parts[I]);
    if (At == llvm::StringRef::npos)
      return false;
    Id = Id.drop_front(At + Parts[I].size());
  }
  return Id.ends_with(Parts.back());
}

} // namespace

llvm::StringRef nearestCheck(llvm::StringRef Name) {
  llvm::StringRef Best;
  unsigned BestDistance = ~0u;
  // A glob is compared by what comes before its first '*' with as much of
  // each id.
  llvm::StringRef Prefix = Name.split('*').first;
  bool Glob = Prefix.size() != Name.size();
  for (const CheckInfo &Info : allChecks()) {
    unsigned D = Glob ? Prefix.edit_distance(Info.Id.take_front(Prefix.size()))
                      : Name.edit_distance(Info.Id);
    if (D < BestDistance) {
      Best = Info.Id;
      BestDistance = D;
    }
  }
  return Best;
}

std::vector<UnknownCheckName> unknownCheckNames(llvm::StringRef Globs) {
  std::vector<UnknownCheckName> Out;
  size_t Start = 0;
  while (Start <= Globs.size()) {
    size_t End = Globs.find_first_of(",\n", Start);
    if (End == llvm::StringRef::npos)
      End = Globs.size();
    llvm::StringRef Item = Globs.slice(Start, End);
    size_t Offset = Start + (Item.size() - Item.ltrim().size());
    Item = Item.trim();
    if (Item.consume_front("-"))
      ++Offset;
    Item = Item.ltrim();
    if (Item.starts_with(OurPrefix) &&
        llvm::none_of(allChecks(), [&](const CheckInfo &Info) {
          return matches(Item, Info.Id);
        }))
      Out.push_back({Item.str(), Globs.find(Item, Offset), nearestCheck(Item)});
    Start = End + 1;
  }
  return Out;
}

std::string describe(const UnknownCheckName &U, llvm::StringRef Where) {
  return "unknown check '" + U.Name + "' in " + Where.str() +
         "; did you mean '" + U.Nearest.str() + "'?";
}

} // namespace cuda_async_lint
