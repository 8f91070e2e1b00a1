//===- RegistrationFacts.cpp ----------------------------------------------===//

#include "RegistrationFacts.h"
#include <cassert>
#include <functional>

namespace cuda_async_lint {

void AllocationSites::insert(const void *Site) {
  if (Numbers.try_emplace(Site, Sites.size()).second)
    Sites.push_back(Site);
}

std::optional<unsigned> AllocationSites::number(const void *Site) const {
  auto It = Numbers.find(Site);
  if (It == Numbers.end())
    return std::nullopt;
  return It->second;
}

RegistrationFacts::RegistrationFacts(const AllocationSites *Sites)
    : Sites(Sites), Fresh(Sites ? Sites->size() : 0) {}

/// The one fresh fact, for lookups of a fresh site.
static const RegistrationFact FreshFact = RegistrationFact::fresh();

const RegistrationFact *RegistrationFacts::find(const void *Key) const {
  auto It = Keyed.find(Key);
  if (It != Keyed.end())
    return &It->second;
  if (std::optional<unsigned> N = Sites ? Sites->number(Key) : std::nullopt)
    if (Fresh.test(*N))
      return &FreshFact;
  return nullptr;
}

void RegistrationFacts::set(const void *Key, const RegistrationFact &Fact) {
  std::optional<unsigned> N = Sites ? Sites->number(Key) : std::nullopt;
  if (N && Fact == FreshFact) {
    Keyed.erase(Key);
    Fresh.set(*N);
    return;
  }
  if (N)
    Fresh.reset(*N);
  Keyed.insert_or_assign(Key, Fact);
}

void RegistrationFacts::unmake(const void *Key) {
  std::optional<unsigned> N = Sites ? Sites->number(Key) : std::nullopt;
  if (!N)
    return;
  Keyed.erase(Key);
  Fresh.reset(*N);
}

void RegistrationFacts::yesToMaybe() {
  // Fresh facts are No: only keyed facts can be Yes.
  for (auto &[Key, Fact] : Keyed)
    if (Fact.R == Registration::Yes)
      Fact = RegistrationFact{Registration::Maybe, nullptr};
}

RegistrationFacts
RegistrationFacts::only(const llvm::SmallPtrSetImpl<const void *> &Keys) const {
  RegistrationFacts Part(Sites);
  for (const void *Key : Keys)
    if (const RegistrationFact *Fact = find(Key))
      Part.set(Key, *Fact);
  return Part;
}

void RegistrationFacts::forEach(
    llvm::function_ref<void(const void *, const RegistrationFact &)> Visit)
    const {
  if (Fresh.none()) {
    for (const auto &[Key, Fact] : Keyed)
      Visit(Key, Fact);
    return;
  }
  std::map<const void *, RegistrationFact> All = Keyed;
  for (unsigned N : Fresh.set_bits())
    All.emplace(Sites->site(N), FreshFact);
  for (const auto &[Key, Fact] : All)
    Visit(Key, Fact);
}

RegistrationFact RegistrationFact::join(const RegistrationFact &A,
                                        const RegistrationFact &B) {
  if (A.R != B.R)
    return {Registration::Maybe, nullptr};
  if (A.R == Registration::No)
    return {Registration::No, nullptr, A.Fresh && B.Fresh};
  // Registered on both paths, maybe by different calls: keep one,
  // deterministically.
  if (A.By && B.By && A.By != B.By)
    return std::less<const clang::CallExpr *>()(A.By, B.By) ? A : B;
  return A.By ? A : B;
}

void RegistrationFacts::join(const RegistrationFacts &Other) {
  if (!Sites) {
    Sites = Other.Sites;
    Fresh.resize(Other.Fresh.size());
  }
  assert((Sites == Other.Sites || Other.Fresh.none()) &&
         "facts of different functions' allocations");
  auto Number = [&](const void *Key) {
    return Sites ? Sites->number(Key) : std::nullopt;
  };
  const RegistrationFact Missing;
  // A site fresh on both paths, or fresh on one and not yet made on the
  // other, stays fresh; the loops below take out those either side keeps
  // by key (a keyed fact is never fresh, nor is its join with one).
  // Other's keyed sites are not fresh there, so their bits still say
  // whether they are fresh here.
  Fresh |= Other.Fresh;
  for (auto &[Key, F] : Keyed) {
    std::optional<unsigned> N = Number(Key);
    if (const RegistrationFact *Theirs = Other.find(Key))
      F = RegistrationFact::join(F, *Theirs);
    else if (!N)
      F = RegistrationFact::join(F, Missing);
    if (N)
      Fresh.reset(*N);
  }
  for (const auto &[Key, F] : Other.Keyed) {
    if (Keyed.count(Key))
      continue;
    std::optional<unsigned> N = Number(Key);
    if (!N) {
      Keyed.emplace(Key, RegistrationFact::join(Missing, F));
      continue;
    }
    Keyed.emplace(Key,
                  Fresh.test(*N) ? RegistrationFact::join(FreshFact, F) : F);
    Fresh.reset(*N);
  }
}

} // namespace cuda_async_lint
