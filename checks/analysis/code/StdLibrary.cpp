//===- StdLibrary.cpp -----------------------------------------------------===//

#include "StdLibrary.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/StringSwitch.h"

namespace cuda_async_lint {

static const clang::ClassTemplateSpecializationDecl *
stdSpecialization(clang::QualType T) {
  const auto *RD =
      T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  const auto *Spec =
      llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier())
    return nullptr;
  return Spec;
}

/// True if template argument \p I of \p Spec is std::allocator<...>: custom
/// allocators (a pinned allocator, say) give storage of unknown provenance.
static bool usesStdAllocator(const clang::ClassTemplateSpecializationDecl *Spec,
                             unsigned I) {
  const clang::TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (I >= Args.size() || Args[I].getKind() != clang::TemplateArgument::Type)
    return false;
  const auto *Alloc = stdSpecialization(Args[I].getAsType());
  return Alloc && Alloc->getName() == "allocator";
}

/// std::vector or std::basic_string with std::allocator.
static bool
isStdHeapContainer(const clang::ClassTemplateSpecializationDecl *Spec) {
  if (Spec->getName() == "vector")
    return usesStdAllocator(Spec, 1);
  if (Spec->getName() == "basic_string")
    return usesStdAllocator(Spec, 2);
  return false;
}

bool isPageableContainer(clang::QualType T) {
  const auto *Spec = stdSpecialization(T);
  return Spec && (Spec->getName() == "array" || isStdHeapContainer(Spec));
}

bool isPageableHeapContainer(clang::QualType T) {
  const auto *RD =
      T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  const auto *Spec =
      llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->getIdentifier())
    return false;
  // thrust::host_vector<T, Alloc = std::allocator<T>>, in thrust's
  // versioned inline namespace.
  if (Spec->getName() == "host_vector") {
    const clang::DeclContext *DC = Spec->getDeclContext();
    while (DC->isInlineNamespace())
      DC = DC->getParent();
    const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(DC);
    return NS && NS->getName() == "thrust" &&
           NS->getParent()->getRedeclContext()->isTranslationUnit() &&
           usesStdAllocator(Spec, 1);
  }
  return Spec->isInStdNamespace() && isStdHeapContainer(Spec);
}

bool isSmartPointer(clang::QualType T) {
  const auto *Spec = stdSpecialization(T);
  return Spec &&
         (Spec->getName() == "unique_ptr" || Spec->getName() == "shared_ptr");
}

bool isMakeSmartPointer(const clang::FunctionDecl *FD) {
  if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier())
    return false;
  return llvm::StringSwitch<bool>(FD->getName())
      .Cases({"make_unique", "make_shared", "make_unique_for_overwrite",
              "make_shared_for_overwrite"},
             true)
      .Default(false);
}

bool copiesItsArguments(const clang::FunctionDecl *FD) {
  if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier())
    return false;
  return llvm::StringSwitch<bool>(FD->getName())
      .Cases({"make_pair", "make_tuple"}, true)
      .Default(false);
}

bool bindsArgumentForWriting(const clang::FunctionDecl *FD, unsigned I) {
  if (!FD || I >= FD->getNumParams())
    return false;
  clang::QualType T = FD->getParamDecl(I)->getType();
  return T->isReferenceType() && !T.getNonReferenceType().isConstQualified() &&
         !copiesItsArguments(FD);
}

bool isContainerAccessor(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"data", "c_str", "get", "front", "back", "begin", "end", "cbegin",
              "cend", "at"},
             true)
      .Default(false);
}

bool isContainerMutator(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"push_back", "emplace_back", "pop_back", "resize", "clear",
              "assign", "insert", "erase", "emplace", "swap", "reserve",
              "shrink_to_fit", "fill"},
             true)
      .Default(false);
}

static constexpr LibraryAccess LibraryAccesses[] = {
    {"memcpy", 0, 1},  {"memmove", 0, 1},   {"memset", 0, -1},
    {"memcmp", -1, 0}, {"strcpy", 0, 1},    {"strncpy", 0, 1},
    {"strlen", -1, 0}, {"fread", 0, -1},    {"fwrite", -1, 0},
    {"copy", 2, 0},    {"copy_n", 2, 0},    {"fill", 0, -1},
    {"fill_n", 0, -1}, {"transform", 2, 0},
};

const LibraryAccess *libraryAccess(const clang::FunctionDecl *FD) {
  if (!isGlobalOrStdFunction(FD))
    return nullptr;
  for (const LibraryAccess &L : LibraryAccesses)
    if (FD->getName() == L.Name)
      return &L;
  return nullptr;
}

} // namespace cuda_async_lint
