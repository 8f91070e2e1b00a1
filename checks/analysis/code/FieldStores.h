//===- FieldStores.h - Whether a callee repoints an object's fields -*- C++
//-*-//
//
// A local struct handed to a function by reference or address may have its
// pointer fields pointed elsewhere by it ('init(t)' doing 't.data = ...'),
// so a caller forgets what they hold. A builder that only fills the memory
// the fields point to (CUDA-ZSTD's FSE_buildDTable_Host writing
// 't.newState[i]') leaves them as they were.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_FIELDSTORES_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_FIELDSTORES_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"

namespace cuda_async_lint {

/// True unless \p FD, defined in this translation unit, provably leaves the
/// fields of the object its parameter \p Param refers to (a reference, or a
/// pointer to a struct) as they were: its body only reads them, or writes
/// through them ('t.data[i] = x', '*t.p = x', 't->data[i] = x'), writes
/// scalar fields ('t.log = 5'), or hands the object on to such a function
/// (three calls deep). Any other use of the parameter (an assignment to a
/// pointer or struct field or to the object, its address or a field's
/// taken, returned or bound to a reference) may store.
bool mayStoreFields(const clang::FunctionDecl *FD, unsigned Param);

/// mayStoreFields, asked once per (function, parameter): a dataflow asks at
/// every pass of its solver.
class FieldStoreAnswers {
public:
  bool mayStore(const clang::FunctionDecl *FD, unsigned Param) {
    auto [It, New] = Answers.try_emplace({FD, Param}, true);
    if (New)
      It->second = mayStoreFields(FD, Param);
    return It->second;
  }

private:
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>, bool>
      Answers;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_FIELDSTORES_H
