//===- CheckRegistry.cpp - Checks.def, expanded ---------------------------===//

#include "cuda-async-lint/CheckRegistry.h"
#include "DeallocMismatchCheck.h"
#include "HostRegisterLeakCheck.h"
#include "PageableCopyCheck.h"

namespace cuda_async_lint {

template <typename CheckT>
static std::unique_ptr<Check> create(DiagnosticSink &Sink) {
  return std::make_unique<CheckT>(Sink);
}

llvm::ArrayRef<CheckInfo> allChecks() {
  static const CheckInfo Checks[] = {
#define CUDA_ASYNC_CHECK(Id, Class, Summary, Rationale)                        \
  {Id, Summary, Rationale, &create<Class>},
#include "Checks.def"
  };
  return Checks;
}

std::string checkDocPath(llvm::StringRef Id) {
  return ("docs/checks/" + Id + ".md").str();
}

} // namespace cuda_async_lint
