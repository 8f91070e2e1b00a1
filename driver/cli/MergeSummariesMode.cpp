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
  Expected<SummaryStore> Merged = mergeSummaryStores(I.Files);
  if (!Merged)
    return usageError(Merged.takeError());
  std::shared_ptr<ProgramSummaries> Program = Merged->Program;
  size_t Results = Merged->Results.size();
  if (Error E = writeSummaryStore(std::move(*Merged), I.MergeSummaries))
    return usageError(std::move(E));
  errs() << "cuda-async-lint: merged " << Program->files().size()
         << " translation unit summaries and " << Results << " results into "
         << I.MergeSummaries
         << (Program->holdsEveryCaller()
                 ? ""
                 : " (not every unit of a program: parameters do not take "
                   "call-site provenance)")
         << "\n";
  return ExitClean;
}

} // namespace cuda_async_lint
