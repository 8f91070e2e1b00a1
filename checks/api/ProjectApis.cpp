//===- ProjectApis.cpp ----------------------------------------------------===//

#include "ProjectApis.h"
#include "clang/AST/Decl.h"
#include <deque>

namespace cuda_async_lint {

namespace {

struct Table {
  ProjectApis Names;
  /// Stable addresses: ApiSpec holds StringRefs into these.
  std::deque<std::string> Strings;
  std::deque<ApiSpec> Specs;
};

Table &table() {
  static Table T;
  return T;
}

llvm::StringRef keep(Table &T, llvm::StringRef S) {
  return T.Strings.emplace_back(S.str());
}

} // namespace

ProjectApis ProjectApis::fromOptions(const CheckOptions &Options) {
  return {Options.globalList("PinnedAllocators"),
          Options.globalList("PinnedReleasers"),
          Options.globalList("PageableAllocators"),
          Options.globalList("PageableReleasers")};
}

void setProjectApis(const ProjectApis &Apis) {
  Table &T = table();
  // The same names again (each check of a translation unit sets them):
  // keep the specs that analyses may already point to.
  if (Apis == T.Names && !T.Specs.empty())
    return;
  T = Table();
  T.Names = Apis;
  // An allocator returns the memory (no out-parameter role), releasing it
  // is the first releaser's job; a releaser takes it first.
  auto Spec = [&](const std::string &Name, ApiKind K, MemoryKind Kind,
                  std::vector<std::optional<ArgRole>> Roles,
                  llvm::StringRef Counterpart) {
    T.Specs.push_back({keep(T, Name), ApiFamily::Libc, std::nullopt, K,
                       ApiMode::Blocking, CopyDirection::Descriptor, Kind,
                       std::move(Roles), Counterpart});
  };
  auto Add = [&](const std::vector<std::string> &Allocators,
                 const std::vector<std::string> &Releasers, MemoryKind Kind) {
    llvm::StringRef Releaser =
        Releasers.empty() ? "" : keep(T, Releasers.front());
    for (const std::string &Name : Allocators)
      Spec(Name, ApiKind::Allocate, Kind, {}, Releaser);
    for (const std::string &Name : Releasers)
      Spec(Name, ApiKind::Release, Kind, {ArgRole::Ptr}, "");
  };
  Add(Apis.PinnedAllocators, Apis.PinnedReleasers, MemoryKind::Pinned);
  Add(Apis.PageableAllocators, Apis.PageableReleasers, MemoryKind::Pageable);
}

const ApiSpec *lookupProjectApi(const clang::FunctionDecl *FD) {
  Table &T = table();
  if (T.Specs.empty() || !FD || !FD->getIdentifier())
    return nullptr;
  std::string Qualified = FD->getQualifiedNameAsString();
  for (const ApiSpec &S : T.Specs) {
    llvm::StringRef Q(Qualified);
    if (Q == S.Name ||
        (Q.ends_with(S.Name) && Q.drop_back(S.Name.size()).ends_with("::")))
      return &S;
  }
  return nullptr;
}

} // namespace cuda_async_lint
