//===- JsonDocument.h - How JSON and SARIF reports are written --*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_JSONDOCUMENT_H
#define CUDA_ASYNC_LINT_DRIVER_JSONDOCUMENT_H

#include "llvm/Support/raw_ostream.h"
#include <nlohmann/json.hpp>

namespace cuda_async_lint {

/// Writes \p Doc indented by two spaces. A path that is not valid UTF-8
/// cannot be written as JSON: its bad bytes become U+FFFD rather than
/// aborting the report.
inline void writeJsonDocument(const nlohmann::json &Doc,
                              llvm::raw_ostream &OS) {
  OS << Doc.dump(2, ' ', /*ensure_ascii=*/false,
                 nlohmann::json::error_handler_t::replace)
     << "\n";
}

struct OutputContext;
struct RuntimeEvidence;

/// A finding's "runtime" object (--runtime-trace), in the JSON report and in
/// SARIF's result properties: status, summary, trace, the measured cost, and
/// where the trace saw the call.
nlohmann::json runtimeJson(const RuntimeEvidence &E, const OutputContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_JSONDOCUMENT_H
