//===- MergeSummariesMode.cpp - --merge-summaries -------------------------===//
//
// A CI matrix's shard stores merged into the program's one store, which a
// later run reads with --summaries (docs/usage.md, "Whole-program analysis").
//
//===----------------------------------------------------------------------===//

#include "ExitCodes.h"
#include "Modes.h"
#include "UsageError.h"
#include "run/SummaryStore.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cuda_async_lint {

int mergeSummaries(const Invocation &I) {
  Expected<MergedStores> Merged = mergeSummaryStores(I.Files, I.MergeSummaries);
  if (!Merged)
    return usageError(Merged.takeError());
  errs() << "cuda-async-lint: merged " << Merged->Units
         << " translation unit summaries and " << Merged->Results
         << " results into " << I.MergeSummaries
         << (Merged->EveryCaller
                 ? ""
                 : " (not every unit of a program: parameters do not take "
                   "call-site provenance)")
         << "\n";
  return ExitClean;
}

} // namespace cuda_async_lint
