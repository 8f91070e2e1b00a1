//===- SwitchCorrelation.h - Cases of two switches on one value -*- C++ -*-===//
//
// Code that allocates in one 'switch (kind)' and releases or copies in a
// later 'switch (kind)' on the same unchanged variable pairs the cases by
// value: an allocation made under 'case PINNED:' reaches only the uses under
// the cases that share a value with it. The join after the first switch
// mixes the cases' pointers (malloc'd in one, pinned in another); this
// separates them again where the function never changes the variable.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_SWITCHCORRELATION_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_SWITCHCORRELATION_H

#include "ProvenanceLattice.h"
#include "api/MemoryKind.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace cuda_async_lint {

/// The origins among \p Origins that may reach \p At in \p FD: all of them
/// unless \p At lies in a case of a switch on a variable \p FD never
/// changes, in which case an origin allocated in a case of another switch
/// on that variable reaches it only if the two cases share a value.
llvm::SmallVector<Origin, 2> originsReaching(llvm::ArrayRef<Origin> Origins,
                                             const clang::Stmt *At,
                                             const clang::FunctionDecl *FD);

/// The kind of memory the allocation \p O returns (a catalogued allocator's
/// call, a new expression), if \p O is one.
std::optional<MemoryKind> allocationKind(Origin O);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_SWITCHCORRELATION_H
