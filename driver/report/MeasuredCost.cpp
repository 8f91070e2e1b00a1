//===- MeasuredCost.cpp ---------------------------------------------------===//

#include "MeasuredCost.h"

namespace cuda_async_lint {

std::vector<MeasuredCost> measuredCosts(llvm::StringRef Id) {
  static const MeasuredCost All[] = {
#include "MeasuredCost.inc"
  };
  std::vector<MeasuredCost> Costs;
  for (const MeasuredCost &C : All)
    if (Id == C.CheckId)
      Costs.push_back(C);
  return Costs;
}

} // namespace cuda_async_lint
