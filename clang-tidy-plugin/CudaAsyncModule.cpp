//===- CudaAsyncModule.cpp - The cuda-async-* checks for clang-tidy -------===//
//
//   clang-tidy --load=CudaAsyncLintTidyModule.so --checks='-*,cuda-async-*' \
//     file.cu -- -x cuda --cuda-host-only ...
//
//===----------------------------------------------------------------------===//

#include "TidyCheckAdaptor.h"
#include "clang-tidy/ClangTidyModule.h"

namespace cuda_async_lint {
namespace {

class CudaAsyncModule : public clang::tidy::ClangTidyModule {
public:
  void
  addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    for (const CheckInfo &Info : allChecks())
      Factories.registerCheckFactory(
          Info.Id,
          [&Info](llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx) {
            return std::make_unique<TidyCheckAdaptor>(Info, Name, Ctx);
          });
  }
};

} // namespace
} // namespace cuda_async_lint

static clang::tidy::ClangTidyModuleRegistry::Add<
    cuda_async_lint::CudaAsyncModule>
    X("cuda-async-module", "Checks for misused asynchronous CUDA transfers.");
