//===- Check.cpp ----------------------------------------------------------===//

#include "cuda-async-lint/Check.h"

namespace cuda_async_lint {

DiagnosticSink::~DiagnosticSink() = default;
Check::~Check() = default;

void Check::onStartOfTranslationUnit() {
  Reported.clear();
  resetTranslationUnit();
}

void Check::onEndOfTranslationUnit() {
  Reported.clear();
  resetTranslationUnit();
}

void Check::report(Finding F, clang::ASTContext &Context) {
  if (!Reported.insert({F.Loc.getRawEncoding(), F.Message}).second)
    return;
  F.CheckId = Id;
  Sink.report(F, Context);
}

} // namespace cuda_async_lint
