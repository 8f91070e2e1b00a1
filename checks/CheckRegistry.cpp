//===- CheckRegistry.cpp - Checks.def, expanded ---------------------------===//

#include "cuda-async-lint/CheckRegistry.h"
#include "api/ProjectApis.h"
#include "summaries/ProgramSummaries.h"

namespace cuda_async_lint {

// Each check's factory, defined beside the check with
// CUDA_ASYNC_LINT_CHECK_FACTORY: the registry needs no check's header.
#define CUDA_ASYNC_CHECK(Id, Class, Kind, Precision, Summary, Rationale)       \
  std::unique_ptr<Check> create##Class(DiagnosticSink &Sink,                   \
                                       const CheckOptions &Options);
#include "Checks.def"

llvm::ArrayRef<CheckInfo> allChecks() {
  static const CheckInfo Checks[] = {
#define CUDA_ASYNC_CHECK(Id, Class, Kind, Precision, Summary, Rationale)       \
  {Id,                                                                         \
   llvm::StringRef(#Class).drop_back(5),                                       \
   CheckKind::Kind,                                                            \
   CheckPrecision::Precision,                                                  \
   Summary,                                                                    \
   Rationale,                                                                  \
   &create##Class},
#include "Checks.def"
  };
  return Checks;
}

const CheckInfo *findCheck(llvm::StringRef Id) {
  for (const CheckInfo &Info : allChecks())
    if (Info.Id == Id)
      return &Info;
  return nullptr;
}

std::unique_ptr<Check> createCheck(const CheckInfo &Info, DiagnosticSink &Sink,
                                   const CheckOptions &Options) {
  setProjectApis(ProjectApis::fromOptions(Options));
  // A summary store (cuda-async-lint --emit-summaries) for cross-file
  // provenance; relative paths are the working directory's.
  if (std::optional<std::string> Store = Options.global("SummaryStore");
      Store && !Store->empty())
    if (llvm::Error E = useSummaryStore(*Store))
      Options.problem(llvm::toString(std::move(E)) +
                      " (the SummaryStore option); analysing without it");
  return Info.Create(Sink, Options);
}

std::string checkDocPath(llvm::StringRef Id) {
  return ("docs/checks/" + Id + ".md").str();
}

} // namespace cuda_async_lint
