//===- EventRings.h - Which element of an array of events -------*- C++ -*-===//
//
// A ring of events records one element and waits on the next, which was
// recorded an iteration earlier:
//
//   record(ev[i], s); i = (i + 1) % 2; cudaEventSynchronize(ev[i]);
//
// That wait does not cover what the element just recorded covers. The
// pending-transfer analysis keeps, per array of events, the index variables
// of the element recorded last and the statements that wrote them since; a
// wait on the same index expression after exactly one ring advance is a
// wait on another element. Anything else (a reset, a loop's increment, a
// ring whose size is not a constant of 2 or more, a wait on another index
// expression: 'record(ev[1 - i]); i = 1 - i; sync(ev[i])' waits on the
// element just recorded) may name the recorded element again: the wait
// covers it, as before.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SYNC_EVENTRINGS_H
#define CUDA_ASYNC_LINT_ANALYSIS_SYNC_EVENTRINGS_H

#include "clang/AST/Expr.h"
#include <optional>
#include <set>

namespace cuda_async_lint {

/// The element of an array of events recorded last: its index, the local
/// variables the index used, and the statements that wrote them since.
struct EventSlot {
  const clang::Expr *Index = nullptr;
  std::set<const clang::VarDecl *> Deps;
  std::set<const clang::Stmt *> Writes;
  bool operator==(const EventSlot &O) const {
    return Index == O.Index && Deps == O.Deps && Writes == O.Writes;
  }
};

/// More writes than this since the record: not a ring moved on once.
constexpr size_t MaxSlotWrites = 4;

/// The index of \p E, an element of an array ('i' of 'ev[i]'); null
/// otherwise.
const clang::Expr *elementIndex(const clang::Expr *E);

/// The local variables the index of \p E uses, where \p E is an element of
/// an array ('ev[i]', 'ev[(i + 1) % n]'); empty otherwise.
std::set<const clang::VarDecl *> elementIndexVariables(const clang::Expr *E);

/// True if \p S moves \p V to another element of a ring of a constant size
/// of 2 or more: 'v = (v + c) % N' and 'v = ++v % N' (c not a multiple of
/// N), 'v ^= 1', 'v = 1 - v', 'v = !v'.
bool isRingAdvance(const clang::Stmt *S, const clang::VarDecl *V,
                   const clang::ASTContext &Ctx);

/// How the index of an element names a slot of a ring: 'a[v]' (a ring
/// whose size its advances say: 'v = (v + 1) % N', 'v = 1 - v'), or
/// 'a[v % N]' and 'a[(v + k) % N]' (a ring of N moved by 'v++').
struct RingIndex {
  const clang::VarDecl *Var = nullptr;
  /// N of 'v % N'; 0 for 'a[v]'.
  unsigned Modulus = 0;
  bool operator==(const RingIndex &O) const {
    return Var == O.Var && Modulus == O.Modulus;
  }
  bool operator<(const RingIndex &O) const {
    return std::tie(Var, Modulus) < std::tie(O.Var, O.Modulus);
  }
};

/// The ring index of \p Element, an element of an array ('a[v]',
/// 'a[v % 2]') whose index names one local variable in one of those forms.
std::optional<RingIndex> ringIndexOf(const clang::Expr *Element,
                                     const clang::ASTContext &Ctx);

/// A move of a ring's index: the ring's size and how many slots on.
struct RingMove {
  unsigned Size;
  unsigned Step;
};

/// How \p S moves the slot \p Index names: for 'a[v]', 'v = (v + c) % N',
/// 'v = ++v % N', 'v ^= 1', 'v = 1 - v', 'v = !v'; for 'a[v % N]', 'v++',
/// '++v', 'v += c', 'v = v + c'. None for anything else, or a move by a
/// whole turn.
std::optional<RingMove> ringMove(const clang::Stmt *S, const RingIndex &Index,
                                 const clang::ASTContext &Ctx);

/// True if \p Slot's index was moved on by exactly one ring advance since
/// the record: one statement of \p Slot.Writes is a ring advance of an
/// index variable, and every other lies inside it ('++v' in
/// 'v = ++v % N').
bool movedOnce(const EventSlot &Slot, const clang::ASTContext &Ctx);

/// The record of \p Slot for the element \p Element of the same array of
/// events: true if \p Element names another element, the one a ring moved
/// on once from the recorded one reaches through the same index expression.
bool namesMovedOnSlot(const EventSlot &Slot, const clang::Expr *Element,
                      const clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SYNC_EVENTRINGS_H
