//===- EmitSummariesMode.cpp - --emit-summaries ---------------------------===//
//
// The program's (with --shard, a shard's) summary store: each unit parsed
// once, summarized and checked, its results kept unresolved for the run
// that reads the store (docs/usage.md, "Whole-program analysis").
//
//===----------------------------------------------------------------------===//

#include "ExitCodes.h"
#include "Modes.h"
#include "ProgramRun.h"
#include "UsageError.h"
#include "run/SummaryStore.h"

using namespace llvm;

namespace cuda_async_lint {

int emitSummaries(const Invocation &I) {
  Expected<ParseSetup> Parsing = parseSetupOf(I, /*WithInputs=*/true);
  if (!Parsing)
    return usageError(Parsing.takeError());
  Expected<std::unique_ptr<ProgramRun>> Run = ProgramRun::open(
      I, Parsing->Config, Parsing->Headers, std::move(Parsing->Inputs));
  if (!Run)
    return usageError(Run.takeError());

  ProgramAnalysis Made = (*Run)->analyzeProgram();
  (*Run)->saySummaryStatistics();
  if (!Made.Program)
    return ExitParseError;
  if (Error E = writeSummaryStore({Made.Program, std::move(Made.Results)},
                                  I.EmitSummaries))
    return usageError(std::move(E));
  return (*Run)->summaryFailures() ? ExitParseError : ExitClean;
}

} // namespace cuda_async_lint
