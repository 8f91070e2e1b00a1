//===- CudaAsyncModule.cpp - The cuda-async-* checks for clang-tidy -------===//
//
//   clang-tidy --load=CudaAsyncLintTidyModule.so --checks='-*,cuda-async-*' \
//     file.cu -- -x cuda --cuda-host-only ...
//
//===----------------------------------------------------------------------===//

#include "../checks/PageableCopyCheck.h"
#include "TidyCheckAdaptor.h"
#include "clang-tidy/ClangTidyModule.h"

namespace cuda_async_lint {
namespace {

class CudaAsyncModule : public clang::tidy::ClangTidyModule {
public:
  void
  addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
#define CUDA_ASYNC_CHECK(Id, Class, Summary, Rationale)                        \
  Factories.registerCheck<TidyCheckAdaptor<Class>>(Id);
#include "../checks/Checks.def"
  }
};

} // namespace
} // namespace cuda_async_lint

static clang::tidy::ClangTidyModuleRegistry::Add<
    cuda_async_lint::CudaAsyncModule>
    X("cuda-async-module", "Checks for misused asynchronous CUDA transfers.");
