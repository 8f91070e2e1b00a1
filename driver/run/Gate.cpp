//===- Gate.cpp -----------------------------------------------------------===//

#include "Gate.h"
#include "clang-tidy/GlobList.h"
#include "config/Configuration.h"

namespace cuda_async_lint {

void regateFindings(std::vector<ResolvedFinding> &Findings,
                    const clang::tidy::ClangTidyOptions &Options) {
  clang::tidy::GlobList AsErrors(Options.WarningsAsErrors.value_or(""));
  bool Decides = warningsAsErrorsDecideGate(Options);
  for (ResolvedFinding &F : Findings) {
    if (F.CheckId != "clang-tidy-nolint")
      F.IsError = AsErrors.contains(F.CheckId);
    F.FailsGate = F.IsError || !Decides;
  }
}

} // namespace cuda_async_lint
