//===- Baseline.cpp -------------------------------------------------------===//

#include "Baseline.h"
#include "llvm/Support/MemoryBuffer.h"
#include <nlohmann/json.hpp>

namespace cuda_async_lint {

using nlohmann::json;

llvm::Expected<Baseline> Baseline::load(llvm::StringRef Path) {
  auto Fail = [&](const std::string &Why) {
    return llvm::createStringError("--baseline='%s': %s", Path.str().c_str(),
                                   Why.c_str());
  };
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return Fail(Buffer.getError().message());
  json Doc = json::parse((*Buffer)->getBuffer().begin(),
                         (*Buffer)->getBuffer().end(), nullptr,
                         /*allow_exceptions=*/false);
  if (Doc.is_discarded())
    return Fail("not valid JSON (write a baseline with --format=json or "
                "--format=sarif)");
  Baseline B;
  auto Add = [&](const json &Print) {
    if (Print.is_string())
      B.Fingerprints.insert(Print.get<std::string>());
  };
  if (Doc.is_object() && Doc.contains("runs") && Doc["runs"].is_array()) {
    for (const json &Run : Doc["runs"])
      if (Run.is_object() && Run.contains("results"))
        for (const json &Result : Run["results"])
          if (Result.is_object() && Result.contains("partialFingerprints") &&
              Result["partialFingerprints"].is_object())
            for (const char *Version :
                 {"cudaAsyncLintFingerprint/v2", "cudaAsyncLintFingerprint/v1"})
              Add(Result["partialFingerprints"].value(Version, json()));
  } else if (Doc.is_object() && Doc.contains("findings") &&
             Doc["findings"].is_array()) {
    for (const json &F : Doc["findings"])
      if (F.is_object())
        Add(F.value("fingerprint", json()));
  } else if (Doc.is_array()) {
    for (const json &Issue : Doc)
      if (Issue.is_object())
        Add(Issue.value("fingerprint", json()));
  } else {
    return Fail("neither a cuda-async-lint JSON report, a SARIF report nor "
                "a Code Climate report");
  }
  return B;
}

} // namespace cuda_async_lint
