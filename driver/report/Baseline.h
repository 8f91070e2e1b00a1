//===- Baseline.h - Adopting the tool on a codebase with findings -*- C++ -*-//

#ifndef CUDA_ASYNC_LINT_DRIVER_BASELINE_H
#define CUDA_ASYNC_LINT_DRIVER_BASELINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

namespace cuda_async_lint {

/// The findings an earlier report accepted, by fingerprint (Fingerprints.h):
/// --baseline reports only the others, so a gate fails on new findings
/// alone. The report is any the driver writes with fingerprints: JSON,
/// SARIF or Code Climate.
class Baseline {
public:
  static llvm::Expected<Baseline> load(llvm::StringRef Path);

  bool contains(llvm::StringRef Fingerprint) const {
    return Fingerprints.contains(Fingerprint);
  }
  size_t size() const { return Fingerprints.size(); }

private:
  llvm::StringSet<> Fingerprints;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_BASELINE_H
