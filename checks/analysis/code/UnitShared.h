//===- UnitShared.h - One analysis object per translation unit --*- C++ -*-===//
//
// Several checks of one translation unit ask the same questions of the same
// per-unit caches (where memory comes from, what each function
// synchronizes). Each asks for the unit's one object, which lives as long as
// a check holds it; the driver analyses units on several threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_UNITSHARED_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_UNITSHARED_H

#include "clang/AST/ASTContext.h"
#include <map>
#include <memory>
#include <mutex>

namespace cuda_async_lint {

/// The \p T of the translation unit of \p Ctx, made with \p T(Ctx) by the
/// first check that asks while none holds one.
template <typename T> std::shared_ptr<T> unitShared(clang::ASTContext &Ctx) {
  static std::mutex Lock;
  static std::map<const clang::ASTContext *, std::weak_ptr<T>> Live;
  std::lock_guard<std::mutex> Guard(Lock);
  for (auto It = Live.begin(); It != Live.end();)
    It = It->second.expired() ? Live.erase(It) : std::next(It);
  std::weak_ptr<T> &Slot = Live[&Ctx];
  if (std::shared_ptr<T> Existing = Slot.lock())
    return Existing;
  auto Fresh = std::make_shared<T>(Ctx);
  Slot = Fresh;
  return Fresh;
}

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_UNITSHARED_H
