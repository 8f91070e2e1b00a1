//===- HostAccess.h - Where host code touches a buffer ----------*- C++ -*-===//
//
// The host side of the pending-transfer analysis: which buffer an address
// names, and which reads, writes and releases a CFG element performs.
//
// A buffer is named by the declaration its address is derived from (a
// pointer variable, an array, a container, a field), following local
// pointers that are only ever initialized from another buffer's address
// ('float *slot = h + i * n'). The local variables the address computation
// uses are kept with it: a slice 'h + i * n' of one iteration is not the
// slice of the next. A member is kept with the object it is reached through
// ('a.h' is not 'b.h'), where that object is named.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PENDING_HOSTACCESS_H
#define CUDA_ASYNC_LINT_ANALYSIS_PENDING_HOSTACCESS_H

#include "clang/AST/Decl.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>
#include <set>

namespace cuda_async_lint {

class ParameterHostUses;

struct BufferRef {
  /// The variable, array, container or field the address derives from.
  const clang::ValueDecl *Base = nullptr;
  /// Local variables the offset or index uses.
  std::set<const clang::VarDecl *> Deps;
  /// For a member: the variable it is reached through ('a.h', 'p->h'), or
  /// the function whose 'this' it is reached through; null where the
  /// object is not named ('plan[i].h').
  const clang::Decl *Object = nullptr;
  /// For a buffer in flight: variables its offset or index used that have
  /// been written since ('h + i * n' after '++i'; Deps is then empty). It
  /// is some earlier slice: not the one they name now ('h + i * n' again),
  /// but any other part of the buffer ('h', 'h[0]', 'h + j * n').
  std::set<const clang::VarDecl *> Stale = {};
  /// Pointers loaded on the way from Base to the memory: 0 for what Base
  /// points to (or is, for an array or container), 1 for what a pointer
  /// stored there points to ('staging[i]' of 'float **staging', read as a
  /// pointer). The slots of an array of pointers are not the buffers they
  /// point to: a copy into 'staging[i]' leaves the read of 'staging[i]'
  /// itself alone.
  unsigned Loads = 0;
  /// For a buffer in flight in a slot of a ring ('h[v]' with 'v = 1 - v',
  /// 'h[c % 2]' with 'c++'; SlotRings.h): how many slots its index has
  /// moved on since, out of RingSize. Not 0: another slot than the index
  /// names now; RingSize moves later name it again.
  unsigned RingTurns = 0;
  unsigned RingSize = 0;
  /// For what a slot of an array of pointers points to, the slot's index
  /// where it is a constant ('pinned_M[1]'): another constant slot holds
  /// another pointer (each allocated on its own, as HybridSort's two pinned
  /// staging buffers are), so another buffer.
  std::optional<int64_t> Slot = std::nullopt;
  /// The bytes from Base an lvalue element names ('ps->sections[0]': 0 to
  /// 4), or where a copy given its address starts ('&ps->sections[1]',
  /// 'h + 4'), where the index or offset is a constant: a copy moves the
  /// bytes at and after its pointer, so an element that ends before that
  /// start is not in it. Unset for what a call is given: it may touch
  /// anything from there on.
  std::optional<int64_t> Element = std::nullopt;
  int64_t ElementEnd = 0;

  bool operator<(const BufferRef &O) const {
    return std::tie(Base, Deps, Stale, Object, Loads, RingTurns, RingSize, Slot,
                    Element) < std::tie(O.Base, O.Deps, O.Stale, O.Object,
                                        O.Loads, O.RingTurns, O.RingSize,
                                        O.Slot, O.Element);
  }
  bool operator==(const BufferRef &O) const {
    return Base == O.Base && Deps == O.Deps && Stale == O.Stale &&
           Object == O.Object && Loads == O.Loads && RingTurns == O.RingTurns &&
           RingSize == O.RingSize && Slot == O.Slot && Element == O.Element;
  }
};

/// \p A and \p B, whatever constant element each names ('h' and 'h[0]').
inline bool sameBufferAnyElement(BufferRef A, BufferRef B) {
  A.Element = B.Element = std::nullopt;
  A.ElementEnd = B.ElementEnd = 0;
  return A == B;
}

enum class AccessKind {
  Read,
  Write,
  /// free, delete, realloc, cudaFreeHost, cudaHostUnregister.
  Release,
  /// The end of a local array's or container's lifetime.
  EndOfLifetime,
};

struct HostAccess {
  const clang::Stmt *At;
  BufferRef Buffer;
  AccessKind Kind;
  /// The expression naming the buffer, for messages.
  const clang::Expr *Spelled;
  /// For an access a member function call makes ('p.sum()' reading the
  /// member 'h'): the access inside that function, for a note.
  const clang::Expr *Within = nullptr;
  /// For a buffer handed to a function of the user's code: that function
  /// and the parameter it binds. What the function does with it decides
  /// whether this is an access at all (HostAccessFinder::resolve); Kind is
  /// what the parameter's type allows.
  const clang::FunctionDecl *Callee = nullptr;
  unsigned Param = 0;
  /// For a buffer handed to a function of this unit, once resolved: the
  /// access in its body that makes the call one ('gpuRef[i]' read in
  /// checkResult), for a note at the line the run would show.
  const clang::Expr *InCallee = nullptr;
  /// An atomic operation on the buffer (__sync_*, __atomic_*), or a call of
  /// a function that applies one to it: memory the host shares with a
  /// running kernel on purpose (system-scope atomics), no race with it.
  bool Atomic = false;
  /// Release or lifetime end: the whole buffer, whatever slice was copied.
  bool Whole() const {
    return Kind == AccessKind::Release || Kind == AccessKind::EndOfLifetime;
  }
};

class HostAccessFinder {
public:
  /// Scans \p FD once for the aliases and range-based for loops it has.
  explicit HostAccessFinder(const clang::FunctionDecl *FD);

  /// The buffer pointer expression \p Pointer addresses.
  std::optional<BufferRef> bufferOf(const clang::Expr *Pointer) const;

  /// The host accesses \p E performs. Async copies and kernel launches are
  /// not host accesses; blocking copies are.
  void accessesOf(const clang::CFGElement &E,
                  llvm::SmallVectorImpl<HostAccess> &Out) const;

  /// What the callee of an access handing the buffer to a user function
  /// does with it (ParameterHostUses.h): false if it does not touch it on
  /// the host, else \p A's Kind made what it does. Asked only of accesses
  /// that meet a transfer in flight: the answer may be a question to the
  /// program's other units.
  bool resolve(HostAccess &A) const;

  /// The expression a local pointer (or stream, or event) variable is only
  /// ever initialized with, if it is never written otherwise.
  const clang::Expr *aliasOf(const clang::VarDecl *VD) const {
    return Aliases.lookup(VD);
  }

  /// The local variable \p E writes, if it writes one: an assignment, an
  /// increment, a declaration. Buffers derived from it change identity.
  static const clang::VarDecl *writtenVariable(const clang::Stmt *E);

  /// The pointer members \p S may point elsewhere: assigned ('p.h = x'),
  /// given by non-const reference ('std::swap(front, back)') or by address
  /// ('cudaMallocHost(&h, n)'). Each with its object (BufferRef::Object).
  void reassignedMembers(const clang::Stmt *S,
                         llvm::SmallVectorImpl<BufferRef> &Out) const;

private:
  std::optional<BufferRef> lvalueBuffer(const clang::Expr *E) const;
  /// Sets \p B's Element to the bytes of element \p Index of type
  /// \p Element, where the index is a constant.
  void setElement(BufferRef &B, const clang::Expr *Index,
                  clang::QualType Element) const;
  void callAccesses(const clang::CallExpr *Call,
                    llvm::SmallVectorImpl<HostAccess> &Out) const;

  /// The member a member expression names, with its object.
  BufferRef memberBuffer(const clang::MemberExpr *ME) const;

  /// The function analysed: members reached through its 'this'.
  const clang::FunctionDecl *Function;
  /// Local pointers only ever initialized from one address expression.
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> Aliases;
  /// Loop variables of range-based for loops.
  llvm::DenseMap<const clang::VarDecl *, const clang::CXXForRangeStmt *>
      RangeLoops;
  /// What callees do to their parameters' memory (ParameterHostUses.h),
  /// the unit's, from the first call that asks.
  mutable std::shared_ptr<ParameterHostUses> Uses;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PENDING_HOSTACCESS_H
