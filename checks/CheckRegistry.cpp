//===- CheckRegistry.cpp - Checks.def, expanded ---------------------------===//

#include "cuda-async-lint/CheckRegistry.h"
#include "api/ProjectApis.h"

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
  return Info.Create(Sink, Options);
}

std::string checkDocPath(llvm::StringRef Id) {
  return ("docs/checks/" + Id + ".md").str();
}

} // namespace cuda_async_lint
