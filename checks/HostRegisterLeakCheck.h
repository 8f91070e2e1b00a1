//===- HostRegisterLeakCheck.h - cuda-async-host-register-leak --*- C++ -*-===//
//
// Pageable memory released while still registered with cudaHostRegister,
// and the caller's memory a function leaves registered when it returns.
// The registration outlives the allocation: its pages stay locked, and a
// later allocation reusing them inherits a stale registration (the next
// cudaHostRegister of it fails with cudaErrorHostMemoryAlreadyRegistered).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_HOSTREGISTERLEAKCHECK_H
#define CUDA_ASYNC_LINT_HOSTREGISTERLEAKCHECK_H

#include "ProvenanceCheck.h"
#include "analysis/code/FunctionCache.h"
#include "analysis/provenance/ParameterRegistrations.h"

namespace cuda_async_lint {

class HostRegisterLeakCheck : public ProvenanceCheck {
public:
  explicit HostRegisterLeakCheck(DiagnosticSink &Sink);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

private:
  /// A release of memory still registered.
  void checkRelease(const clang::ast_matchers::MatchFinder::MatchResult &R);
  /// An unregistration that leaves a sibling parameter registered.
  void checkUnregistration(const clang::CallExpr *Call,
                           const clang::FunctionDecl *Function,
                           clang::ASTContext &Ctx);
  void resetTranslationUnit() override;

  FunctionCache<std::vector<ParameterLeftRegistered>> LeftRegistered;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_HOSTREGISTERLEAKCHECK_H
