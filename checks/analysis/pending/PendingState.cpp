//===- PendingState.cpp - Transfers in flight, per assumption -------------===//

#include "PendingState.h"
#include "SlotRings.h"
#include "analysis/dataflow/ForwardDataflow.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace cuda_async_lint::pending {

namespace {

/// The transfers either disjunct has in flight; the events both know.
void mergeInto(Disjunct &Into, const Disjunct &From) {
  intersectEventRings(Into, From);
  for (const PendingTransfer &P : From.Pending)
    addPending(Into.Pending, P);
  intersectSetMaps(Into.EventCovers, From.EventCovers);
  // An element recorded differently on the two paths is not known.
  intersectEqualMaps(Into.EventSlots, From.EventSlots);
  intersectSetMaps(Into.StreamWaits, From.StreamWaits);
  Into.Capturing |= From.Capturing;
}

} // namespace

void joinStates(PendingState &Into, const PendingState &From) {
  std::vector<Disjunct> All = std::move(Into.Disjuncts);
  All.insert(All.end(), From.Disjuncts.begin(), From.Disjuncts.end());
  Into.Disjuncts.clear();
  for (Disjunct &D : All) {
    auto Same = llvm::find_if(Into.Disjuncts, [&](const Disjunct &Mine) {
      return Mine.sameAssumptions(D);
    });
    if (Same != Into.Disjuncts.end())
      mergeInto(*Same, D);
    else
      Into.Disjuncts.push_back(std::move(D));
  }
  // Paths in the same state that differ only in what their branches said
  // are one path: what they all said is kept (a later branch learns the
  // rest again). This keeps functions with many independent conditions
  // within MaxDisjuncts.
  for (size_t I = 0; I < Into.Disjuncts.size(); ++I)
    for (size_t J = I + 1; J < Into.Disjuncts.size();) {
      Disjunct &A = Into.Disjuncts[I], &B = Into.Disjuncts[J];
      if (A.Advanced == B.Advanced && A.Pending == B.Pending &&
          A.EventCovers == B.EventCovers && A.EventSlots == B.EventSlots &&
          A.EventRings == B.EventRings && A.StreamWaits == B.StreamWaits &&
          A.Capturing == B.Capturing) {
        BranchFacts::intersect(A.Facts, B.Facts);
        Into.Disjuncts.erase(Into.Disjuncts.begin() + J);
      } else {
        ++J;
      }
    }
  // Too many: forget the counter and branch facts (every branch on them is
  // then feasible, which only costs precision).
  if (Into.Disjuncts.size() > MaxDisjuncts) {
    Disjunct All = Into.Disjuncts.front();
    for (size_t I = 1; I < Into.Disjuncts.size(); ++I) {
      mergeInto(All, Into.Disjuncts[I]);
      BranchFacts::intersect(All.Facts, Into.Disjuncts[I].Facts);
    }
    All.Advanced.clear();
    Into.Disjuncts = {std::move(All)};
  }
  llvm::sort(Into.Disjuncts, [](const Disjunct &A, const Disjunct &B) {
    return std::tie(A.Advanced, A.Facts) < std::tie(B.Advanced, B.Facts);
  });
}

} // namespace cuda_async_lint::pending
