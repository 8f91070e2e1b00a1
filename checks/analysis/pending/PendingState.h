//===- PendingState.h - Transfers in flight, per assumption -----*- C++ -*-===//
//
// The lattice of the pending-transfer dataflow: per assumption about the
// loop counters and branch conditions (a disjunct), the transfers that
// may still be in flight and the events that cover them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PENDING_PENDINGSTATE_H
#define CUDA_ASYNC_LINT_ANALYSIS_PENDING_PENDINGSTATE_H

#include "PendingTransfers.h"
#include "analysis/dataflow/BranchFacts.h"
#include "analysis/sync/EventRings.h"
#include <map>
#include <set>
#include <vector>

namespace cuda_async_lint::pending {

/// An array of events recorded at a ring's slots ('ev[v]', SlotRings.h):
/// per slot, counted back from the one its index names now, what its last
/// record covers.
struct EventRing {
  RingIndex Index;
  std::vector<TransferSet> Records;
  bool operator==(const EventRing &O) const {
    return Index == O.Index && Records == O.Records;
  }
};

/// Facts under one assumption about the loop counters.
struct Disjunct {
  /// Counters known to have been incremented since they were set to 0.
  std::set<const clang::VarDecl *> Advanced;
  TransferSet Pending;
  /// Per event recorded on every path: the transfers it covers. An event
  /// not in the map was recorded somewhere unknown.
  std::map<StreamRef, TransferSet> EventCovers;
  /// Per array of events in EventCovers recorded at an element whose index
  /// names local variables: which element (EventSlot).
  std::map<StreamRef, EventSlot> EventSlots;
  /// Per array of events recorded at a ring's slots: its records.
  std::map<StreamRef, EventRing> EventRings;
  /// Per stream made to wait for an event on every path
  /// (cudaStreamWaitEvent): the transfers its later work is ordered after,
  /// so that a sync of it, or an event recorded on it, covers them too.
  std::map<StreamRef, TransferSet> StreamWaits;
  /// A stream capture may be under way: copies issued now are recorded
  /// into a graph, not run (cudaStreamBeginCapture .. EndCapture).
  bool Capturing = false;
  /// What the path's branch conditions say (BranchFacts.h).
  BranchFactSet Facts;

  bool operator==(const Disjunct &O) const {
    return Advanced == O.Advanced && Pending == O.Pending &&
           EventCovers == O.EventCovers && EventSlots == O.EventSlots &&
           EventRings == O.EventRings && StreamWaits == O.StreamWaits &&
           Capturing == O.Capturing && Facts == O.Facts;
  }
  /// Disjuncts with the same assumptions merge.
  bool sameAssumptions(const Disjunct &O) const {
    return Advanced == O.Advanced && Facts == O.Facts;
  }
};

/// The state at a point: the disjuncts of the paths that reach it.
struct PendingState {
  std::vector<Disjunct> Disjuncts;
  bool operator==(const PendingState &O) const {
    return Disjuncts == O.Disjuncts;
  }
};

/// More disjuncts than this merge, bounding the state.
constexpr size_t MaxDisjuncts = 8;

/// Joins \p From into \p Into and brings \p Into to its canonical form:
/// one disjunct per set of counter facts, sorted, at most MaxDisjuncts.
void joinStates(PendingState &Into, const PendingState &From);

} // namespace cuda_async_lint::pending

#endif // CUDA_ASYNC_LINT_ANALYSIS_PENDING_PENDINGSTATE_H
