//===- SlotRings.h - Rings of pinned buffers and of events ------*- C++ -*-===//
//
// A ring of staging buffers fills one slot, copies it, records the slot's
// event, and moves on; the slot is refilled a turn later, and the wait on
// its event must come first:
//
//   for (...) { wait(ev[i]); fill(h[i]); copyAsync(h[i]); record(ev[i]);
//               i = 1 - i; }
//
// The pending-transfer analysis follows, per transfer into a slot, how many
// slots the ring's index has moved since (BufferRef::RingTurns: it names
// the slot again after a whole turn), and per array of events at the same
// kind of index, what each slot's last record covers (EventRing). A
// transfer issued again is not covered by the records before it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PENDING_SLOTRINGS_H
#define CUDA_ASYNC_LINT_ANALYSIS_PENDING_SLOTRINGS_H

#include "PendingState.h"

namespace cuda_async_lint::pending {

/// \p P's buffer once \p St, which assigns \p Written, has moved the ring
/// whose slot \p P's buffer is ('h[v]', 'h[v % N]'); none if \p St is not
/// such a move, or \p P's buffer no slot of such a ring.
std::optional<BufferRef> turnedSlot(const PendingTransfer &P,
                                    const clang::Stmt *St,
                                    const clang::VarDecl *Written,
                                    const clang::ASTContext &Ctx);

/// \p St assigns \p Written: the rings of events it indexes turn, or are
/// forgotten where \p St is not a move of their ring.
void turnEventRings(Disjunct &D, const clang::Stmt *St,
                    const clang::VarDecl *Written,
                    const clang::ASTContext &Ctx);

/// A record of \p Event, the element \p Element names, covering
/// \p Covered: the slot's last record, where \p Element is a ring's slot.
/// A ring seen first: its other slots were recorded where the analysis
/// cannot see, and may cover whatever is in flight.
void recordEventRing(Disjunct &D, const StreamRef &Event,
                     const clang::Expr *Element, const TransferSet &Covered,
                     const clang::ASTContext &Ctx);

/// What a wait on \p Element of \p Event covers, where it is a slot of
/// the ring \p Event is recorded as; null otherwise.
const TransferSet *eventRingCovers(const Disjunct &D, const StreamRef &Event,
                                   const clang::Expr *Element,
                                   const clang::ASTContext &Ctx);

/// \p P was issued again: the records before it do not cover it.
void uncoverReissued(Disjunct &D, const PendingTransfer &P);

/// The must-join of two paths' event rings (before their transfers in
/// flight join): the rings both have; per slot, the transfers its record
/// covers on each path where that path has them in flight.
void intersectEventRings(Disjunct &Into, const Disjunct &From);

} // namespace cuda_async_lint::pending

#endif // CUDA_ASYNC_LINT_ANALYSIS_PENDING_SLOTRINGS_H
