//===- HostCommunication.h - MPI calls made from the host -----*- C++ -*-===//
//
// The catalog of host-side communication calls (HostCommunicationApis.def):
// MPI's sends, receives and collectives, which the host thread makes
// outside any CUDA stream's order. Kept apart from the CUDA API catalog
// (lookupApi), whose calls all act on the GPU.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_API_HOSTCOMMUNICATION_H
#define CUDA_ASYNC_LINT_API_HOSTCOMMUNICATION_H

#include "ApiKind.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace clang {
class CallExpr;
class Expr;
class FunctionDecl;
} // namespace clang

namespace cuda_async_lint {

struct HostCommunicationSpec {
  llvm::StringRef Name;
  /// The parameter list's roles: Src (read), Dst (written), or none.
  std::vector<std::optional<ArgRole>> Roles;
};

/// The host communication function \p FD is (a function at global scope of
/// that name), or null.
const HostCommunicationSpec *
lookupHostCommunication(const clang::FunctionDecl *FD);

/// The host communication call \p Call is, or null.
const HostCommunicationSpec *
lookupHostCommunication(const clang::CallExpr *Call);

/// The arguments of \p Call (a call of \p Spec) with role \p R.
std::vector<const clang::Expr *>
hostCommunicationArgs(const clang::CallExpr *Call,
                      const HostCommunicationSpec &Spec, ArgRole R);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_API_HOSTCOMMUNICATION_H
