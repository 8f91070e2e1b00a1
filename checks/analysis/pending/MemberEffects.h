//===- MemberEffects.h - What a member function leaves in flight -*- C++ -*-=//
//
// A member function's effect on the buffers of its object, for the callers
// that call it on a named object ('p.download(); ... p.sum();'): the async
// transfers on buffer members still in flight when it returns, and the
// first accesses it makes to buffer members before it synchronizes
// anything. The pending-transfer analysis (PendingTransfers.h) computes
// them and applies them at each call, with the object of the call.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PENDING_MEMBEREFFECTS_H
#define CUDA_ASYNC_LINT_ANALYSIS_PENDING_MEMBEREFFECTS_H

#include "PendingTransfers.h"
#include <optional>
#include <set>
#include <vector>

namespace cuda_async_lint {

/// A transfer on a buffer member of the object, in flight at the return.
struct MemberTransfer {
  /// The transfer as the callee sees it: its buffer is the whole member
  /// (Object is set at each call).
  PendingTransfer Transfer;
  /// Issued on the callee's stream parameter of this index: the caller's
  /// argument names the stream.
  std::optional<unsigned> StreamParam;
};

/// An access to a buffer member that may run before anything the callee
/// synchronizes: it conflicts with a transfer the caller left in flight.
struct MemberAccess {
  const clang::FieldDecl *Member;
  AccessKind Kind;
  /// The access inside the callee.
  const clang::Stmt *At;
  const clang::Expr *Spelled;
  /// Which transfers it conflicts with: device writes (any access) or
  /// device reads (writes and releases only).
  bool ConflictsWithDeviceWrites;
};

/// A transfer on the memory a pointer parameter points to (the whole of it,
/// as the callee names it), in flight when the function returns
/// ('void fetch(float *h, ...) { cudaMemcpyAsync(h, d, n, D2H, s); }'): the
/// caller's argument is the buffer.
struct ParameterTransfer {
  /// The transfer as the callee sees it.
  PendingTransfer Transfer;
  unsigned Param;
  /// Issued on the callee's stream parameter of this index.
  std::optional<unsigned> StreamParam;
};

struct MemberEffects {
  std::vector<MemberTransfer> Transfers;
  std::vector<MemberAccess> Accesses;
  /// Pointer members it may point elsewhere: the caller's transfers on them
  /// are on another buffer afterwards.
  std::set<const clang::FieldDecl *> Reassigned;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PENDING_MEMBEREFFECTS_H
