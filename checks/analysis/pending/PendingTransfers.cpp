//===- PendingTransfers.cpp - The pending-transfer dataflow ---------------===//

#include "PendingTransfers.h"
#include "TransferDataflow.h"
#include "analysis/dataflow/ForwardDataflow.h"

using namespace clang;

namespace cuda_async_lint {

using namespace pending;

namespace {

std::vector<TransferHazard> hazards(const FunctionDecl *FD, ASTContext &Ctx,
                                    ProvenanceAnalysis &Provenance,
                                    SyncSummaries &Syncs,
                                    bool PageableAsPinned) {
  std::vector<TransferHazard> Hazards;
  std::unique_ptr<CFG> Cfg = buildAnalysisCFG(FD, Ctx, /*Lifetimes=*/true);
  if (!Cfg)
    return Hazards;
  HostAccessFinder Accesses(FD);
  TransferDataflow Dataflow(FD, Ctx, Provenance, Syncs, Accesses);
  Dataflow.PageableAsPinned = PageableAsPinned;
  solveAndReplay(*Cfg, Dataflow, Hazards);
  return Hazards;
}

} // namespace

bool touchesInFlight(const BufferRef &Touched, bool Whole,
                     const BufferRef &InFlight) {
  if (InFlight.Base != Touched.Base || InFlight.Object != Touched.Object ||
      InFlight.Loads != Touched.Loads)
    return false;
  // Two constant slots of an array of pointers: two pointers.
  if (InFlight.Slot && Touched.Slot && *InFlight.Slot != *Touched.Slot)
    return false;
  // An element that ends before where the copy starts ('sections[0]'
  // beside a copy into '&sections[1]').
  if (InFlight.Element && Touched.Element &&
      Touched.ElementEnd <= *InFlight.Element)
    return false;
  if (Whole)
    return true;
  return InFlight.RingTurns == 0 &&
         std::includes(Touched.Deps.begin(), Touched.Deps.end(),
                       InFlight.Deps.begin(), InFlight.Deps.end()) &&
         // 'h + i * n' now is not the slice of an earlier 'i'.
         llvm::none_of(InFlight.Stale, [&](const VarDecl *V) {
           return Touched.Deps.count(V) != 0;
         });
}

void addPending(TransferSet &Set, PendingTransfer P) {
  if (Set.count(P))
    return;
  // Those that came first stay (replacing them as others join would keep
  // a loop of gotos from settling).
  size_t Same = 0;
  for (const PendingTransfer &Q : Set)
    if (Q.DeviceWrites == P.DeviceWrites && Q.Stream == P.Stream &&
        Q.Buffer == P.Buffer && ++Same >= MaxPendingPerBuffer)
      return;
  Set.insert(std::move(P));
}

std::vector<TransferHazard> findTransferHazards(const FunctionDecl *FD,
                                                ASTContext &Ctx,
                                                ProvenanceAnalysis &Provenance,
                                                SyncSummaries &Syncs) {
  return hazards(FD, Ctx, Provenance, Syncs, /*PageableAsPinned=*/false);
}

std::vector<TransferHazard> findHazardsIfPinned(const FunctionDecl *FD,
                                                ASTContext &Ctx,
                                                ProvenanceAnalysis &Provenance,
                                                SyncSummaries &Syncs) {
  return hazards(FD, Ctx, Provenance, Syncs, /*PageableAsPinned=*/true);
}

} // namespace cuda_async_lint
