//===- JsonDocument.h - How JSON and SARIF reports are written --*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_JSONDOCUMENT_H
#define CUDA_ASYNC_LINT_DRIVER_JSONDOCUMENT_H

#include "llvm/Support/raw_ostream.h"
#include <nlohmann/json.hpp>

namespace cuda_async_lint {

/// Writes \p Doc indented by two spaces, straight to \p OS (a report of
/// thousands of findings is not built as a string first). A path that is
/// not valid UTF-8 cannot be written as JSON: its bad bytes become U+FFFD
/// rather than aborting the report.
inline void writeJsonDocument(const nlohmann::json &Doc,
                              llvm::raw_ostream &OS) {
  struct ToStream : nlohmann::detail::output_adapter_protocol<char> {
    explicit ToStream(llvm::raw_ostream &OS) : OS(OS) {}
    void write_character(char C) override { OS << C; }
    void write_characters(const char *S, std::size_t N) override {
      OS.write(S, N);
    }
    llvm::raw_ostream &OS;
  };
  // What nlohmann::json::dump(2, ' ', false, replace) does, into OS.
  nlohmann::detail::serializer<nlohmann::json> Serializer(
      std::make_shared<ToStream>(OS), ' ',
      nlohmann::json::error_handler_t::replace);
  Serializer.dump(Doc, /*pretty_print=*/true, /*ensure_ascii=*/false,
                  /*indent_step=*/2);
  OS << "\n";
}

struct OutputContext;
struct RuntimeEvidence;

/// A finding's "runtime" object (--runtime-trace), in the JSON report and in
/// SARIF's result properties: status, summary, trace, the measured cost, and
/// where the trace saw the call.
nlohmann::json runtimeJson(const RuntimeEvidence &E, const OutputContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_JSONDOCUMENT_H
