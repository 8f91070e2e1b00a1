//===- PendingTransfers.cpp - The pending-transfer dataflow ---------------===//

#include "PendingTransfers.h"
#include "ForwardDataflow.h"
#include "TransferDataflow.h"

using namespace clang;

namespace cuda_async_lint {

using namespace pending;

std::vector<TransferHazard> findTransferHazards(const FunctionDecl *FD,
                                                ASTContext &Ctx,
                                                ProvenanceAnalysis &Provenance,
                                                SyncSummaries &Syncs) {
  std::vector<TransferHazard> Hazards;
  std::unique_ptr<CFG> Cfg = buildAnalysisCFG(FD, Ctx, /*Lifetimes=*/true);
  if (!Cfg)
    return Hazards;
  HostAccessFinder Accesses(FD);
  TransferDataflow Dataflow(FD, Ctx, Provenance, Syncs, Accesses);
  solveAndReplay(*Cfg, Dataflow, Hazards);
  return Hazards;
}

} // namespace cuda_async_lint
