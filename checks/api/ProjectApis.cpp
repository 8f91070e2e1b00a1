//===- ProjectApis.cpp ----------------------------------------------------===//

#include "ProjectApis.h"
#include "clang/AST/Decl.h"
#include <deque>

namespace cuda_async_lint {

namespace {

/// An allocator of the configuration is looked up in one of these forms,
/// chosen by its declaration: one that returns the memory, or one that
/// stores it through its first parameter of pointer-to-pointer type (as
/// cudaMallocHost does), for parameters up to this index.
constexpr unsigned MaxOutParameter = 4;

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
  // An allocator returns the memory, or stores it through an out-parameter
  // (a form per position, chosen by the declaration at lookup); releasing
  // it is the first releaser's job; a releaser takes it first.
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
    for (const std::string &Name : Allocators) {
      Spec(Name, ApiKind::Allocate, Kind, {}, Releaser);
      for (unsigned Out = 0; Out <= MaxOutParameter; ++Out) {
        std::vector<std::optional<ArgRole>> Roles(Out + 1);
        Roles[Out] = ArgRole::Out;
        Spec(Name, ApiKind::Allocate, Kind, std::move(Roles), Releaser);
      }
    }
    for (const std::string &Name : Releasers)
      Spec(Name, ApiKind::Release, Kind, {ArgRole::Ptr}, "");
  };
  Add(Apis.PinnedAllocators, Apis.PinnedReleasers, MemoryKind::Pinned);
  Add(Apis.PageableAllocators, Apis.PageableReleasers, MemoryKind::Pageable);
}

/// The parameter through which \p FD stores the memory it allocates: the
/// first of type `T **` or `T *&` when it returns no pointer itself.
static std::optional<unsigned> outParameter(const clang::FunctionDecl *FD) {
  if (FD->getReturnType()->isPointerType())
    return std::nullopt;
  for (unsigned I = 0; I < FD->getNumParams() && I <= MaxOutParameter; ++I) {
    clang::QualType T = FD->getParamDecl(I)->getType();
    clang::QualType Pointee =
        T->isReferenceType() ? T.getNonReferenceType() : T->getPointeeType();
    if (!Pointee.isNull() && !Pointee.isConstQualified() &&
        Pointee->isPointerType())
      return I;
  }
  return std::nullopt;
}

const ApiSpec *lookupProjectApi(const clang::FunctionDecl *FD) {
  Table &T = table();
  if (T.Specs.empty() || !FD || !FD->getIdentifier())
    return nullptr;
  std::string Qualified = FD->getQualifiedNameAsString();
  llvm::StringRef Q(Qualified);
  for (auto It = T.Specs.begin(); It != T.Specs.end(); ++It) {
    if (Q != It->Name && !(Q.ends_with(It->Name) &&
                           Q.drop_back(It->Name.size()).ends_with("::")))
      continue;
    if (It->Kind != ApiKind::Allocate)
      return &*It;
    // The returning form, then a form per out-parameter position.
    std::optional<unsigned> Out = outParameter(FD);
    return Out ? &It[1 + *Out] : &*It;
  }
  return nullptr;
}

} // namespace cuda_async_lint
