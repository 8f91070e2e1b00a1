//===- ProjectApis.h - A project's own allocators and releasers -*- C++ -*-===//
//
// Projects wrap CUDA's allocators: a pool's allocPinned/releasePinned. The
// configuration names them (global CheckOptions, shared by every check since
// the checks share one provenance analysis), and the catalog then treats them
// as it treats cudaMallocHost and cudaFreeHost: an allocator returns the
// memory or, declared without a pointer result, stores it through its first
// `T **` or `T *&` parameter; a releaser takes it as its first argument.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_API_PROJECTAPIS_H
#define CUDA_ASYNC_LINT_API_PROJECTAPIS_H

#include "CudaApiCatalog.h"
#include "cuda-async-lint/CheckOptions.h"

namespace cuda_async_lint {

struct ProjectApis {
  /// Qualified or plain names: "Pool::allocPinned" matches that member in
  /// any namespace, "allocPinned" any function of that name.
  std::vector<std::string> PinnedAllocators, PinnedReleasers;
  std::vector<std::string> PageableAllocators, PageableReleasers;

  /// Reads the global options PinnedAllocators, PinnedReleasers,
  /// PageableAllocators and PageableReleasers.
  static ProjectApis fromOptions(const CheckOptions &Options);
  bool operator==(const ProjectApis &O) const {
    return PinnedAllocators == O.PinnedAllocators &&
           PinnedReleasers == O.PinnedReleasers &&
           PageableAllocators == O.PageableAllocators &&
           PageableReleasers == O.PageableReleasers;
  }
};

/// Makes \p Apis part of the catalog, replacing the previous ones: the checks
/// of a translation unit set them as they are created, before its parse.
void setProjectApis(const ProjectApis &Apis);

/// The project API \p FD is, if the configuration names it.
const ApiSpec *lookupProjectApi(const clang::FunctionDecl *FD);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_API_PROJECTAPIS_H
