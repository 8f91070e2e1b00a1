//===- RegistrationReads.h - Registrations a function can read --*- C++ -*-===//
//
// The provenance dataflow keeps, per allocation (and per pointer parameter,
// for the memory it points to), whether it is registered. A call of a
// function of another unit may register or unregister what it is given; a
// function nothing is known of may do either (Maybe). Such a fact matters
// only if something reads it later: a check asking what a pointer at a CUDA
// call or a delete points to, or a caller in this unit taking the
// function's summary. Where nothing can, the call's effect on it is left out
// of the question the unit asks of the program (CallEffects.h), so that
// "nothing is known of it" and a summary that registers nothing answer
// alike.
//
// Which reads are possible is decided from the function's body alone:
// - an allocation made within the call's own argument ('f("name")',
//   'f(malloc(n))') is named by nothing else;
// - a local variable whose storage only such calls see ('&plan' passed to
//   calls of other units' functions, 'plan.n' read and written) is read by
//   nothing else;
// - a pointer parameter's memory is read where a CUDA call or a release in
//   the function takes a pointer into it as host memory (a copy's host side,
//   where its direction is known; any argument but a stream or an event),
//   or by a caller of the function in this unit;
// - a stream or an event handle is no host memory at all.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_REGISTRATIONREADS_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_REGISTRATIONREADS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

namespace cuda_async_lint {

/// What of its registration facts one function's body can read.
class RegistrationReads {
public:
  /// \p HasLocalCallers: a function of this unit calls \p FD directly, and
  /// may take its summary.
  RegistrationReads(const clang::FunctionDecl *FD, bool HasLocalCallers);

  /// True if a registration of the local variable \p VD's storage, made by
  /// a call of another unit's function it is passed to, can be read.
  bool storageRead(const clang::VarDecl *VD) const;
  /// True if a registration of what pointer parameter \p PD points to can
  /// be read.
  bool parameterRead(const clang::ParmVarDecl *PD) const {
    return HasLocalCallers || ReadParameters.count(PD);
  }

private:
  const clang::FunctionDecl *Function;
  bool HasLocalCallers;
  /// Locals of the function with a use other than a member read or write,
  /// or '&x' handed straight to a call of a function defined elsewhere.
  llvm::DenseSet<const clang::VarDecl *> Named;
  llvm::DenseSet<const clang::ParmVarDecl *> ReadParameters;
};

/// True if \p Origin (an allocating expression) lies within \p Arg: made by
/// the argument itself, and named by no other expression.
bool allocatedWithin(const clang::Stmt *Origin, const clang::Expr *Arg);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_REGISTRATIONREADS_H
