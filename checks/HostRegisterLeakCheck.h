//===- HostRegisterLeakCheck.h - cuda-async-host-register-leak --*- C++ -*-===//
//
// Pageable memory released while still registered with cudaHostRegister.
// The registration outlives the allocation: its pages stay locked, and a
// later allocation reusing them inherits a stale registration (the next
// cudaHostRegister of it fails with cudaErrorHostMemoryAlreadyRegistered).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_HOSTREGISTERLEAKCHECK_H
#define CUDA_ASYNC_LINT_HOSTREGISTERLEAKCHECK_H

#include "ProvenanceCheck.h"

namespace cuda_async_lint {

class HostRegisterLeakCheck : public ProvenanceCheck {
public:
  explicit HostRegisterLeakCheck(DiagnosticSink &Sink);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_HOSTREGISTERLEAKCHECK_H
