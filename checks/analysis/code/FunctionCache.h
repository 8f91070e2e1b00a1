//===- FunctionCache.h - Per-function facts of one TU ------------*- C++
//-*-===//
//
// Checks match many calls in one function; what they need to know about the
// whole function (its buffers, whether it uses the per-thread default
// stream, its created streams) is computed once per function and dropped
// with the translation unit (from the check's resetTranslationUnit()).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_FUNCTIONCACHE_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_FUNCTIONCACHE_H

#include "clang/AST/Decl.h"

#include <unordered_map>

namespace cuda_async_lint {

template <typename T> class FunctionCache {
public:
  /// The cached value for \p FD, computed by \p Compute(FD) the first time.
  /// References stay valid until clear().
  template <typename ComputeFn>
  const T &get(const clang::FunctionDecl *FD, ComputeFn &&Compute) {
    auto It = Values.find(FD);
    if (It == Values.end())
      It = Values.emplace(FD, Compute(FD)).first;
    return It->second;
  }
  void clear() { Values.clear(); }

private:
  std::unordered_map<const clang::FunctionDecl *, T> Values;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_FUNCTIONCACHE_H
