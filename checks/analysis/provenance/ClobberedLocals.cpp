//===- ClobberedLocals.cpp - What a call may store into a caller's locals -===//
//
// ProvenanceDataflow's rule for a call that is given a local by address or
// by non-const reference and may store anything there: the local is
// Unknown after it.
//
//===----------------------------------------------------------------------===//

#include "ProvenanceDataflow.h"
#include "ProvenanceExpressions.h"
#include "api/CudaApiCatalog.h"

using namespace clang;

namespace cuda_async_lint::provenance {

bool ProvenanceDataflow::isClobberable(const Expr *Arg, bool MutableReference) {
  if (const Expr *Target = addressOfOperand(Arg))
    return asTrackedLocal(Target) ||
           isa_and_nonnull<VarDecl>(summarizedVariable(Target));
  return MutableReference && asTrackedLocal(Arg);
}

void ProvenanceDataflow::clobber(const Expr *Arg, State &S) const {
  if (const Expr *Target = addressOfOperand(Arg)) {
    if (const VarDecl *VD = asTrackedLocal(Target))
      S.Vars.insert_or_assign(VD, PointerValue::unknown());
    else if (isa_and_nonnull<VarDecl>(summarizedVariable(Target)))
      assign(Target, PointerValue::unknown(), S);
    return;
  }
  if (const VarDecl *VD = asTrackedLocal(Arg))
    S.Vars.insert_or_assign(VD, PointerValue::unknown());
}

} // namespace cuda_async_lint::provenance
