//===- ParameterRegistrations.h - The caller's memory left pinned -*- C++ -*-=//
//
// A function that pins the buffers its caller hands it (cudaHostRegister of
// its pointer parameters, for its own copies) must unpin them before it
// returns: the caller cannot know to, and a second call's registration of
// the same range fails with cudaErrorHostMemoryAlreadyRegistered. Whether it
// meant to is only certain where it shows it: it unregisters one of the
// buffers it registered and never another.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PARAMETERREGISTRATIONS_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PARAMETERREGISTRATIONS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <vector>

namespace cuda_async_lint {

class SummaryProvider;

/// A pointer parameter a function registers and returns with still
/// registered, beside a sibling it registered and unregisters.
struct ParameterLeftRegistered {
  const clang::ParmVarDecl *Param;
  /// The registration of Param.
  const clang::CallExpr *RegisteredBy;
  const clang::ParmVarDecl *Sibling;
  /// The sibling's unregistration, after every use of Param.
  const clang::CallExpr *SiblingUnregistered;
};

/// The parameters \p FD leaves registered, where it shows it means to
/// unregister what it registers: \p FD registers parameters P and Q; it
/// unregisters Q after its last use of P, and never P; P goes nowhere else
/// (it is not stored beyond the function's locals, returned, captured, or
/// handed to a function that may unregister or keep it); and \p FD's
/// summary says P may be registered where it returns. (Not that it is
/// certain: the dataflow does not correlate 'if (split) register' with a
/// later 'if (split) unregister'.) A local stored from a parameter ('part[k]
/// = &p[off]') is that parameter. Any unregistration of memory that is no
/// parameter's makes the function's intent unknown: none is reported.
std::vector<ParameterLeftRegistered>
parametersLeftRegistered(const clang::FunctionDecl *FD, SummaryProvider &SP,
                         clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PARAMETERREGISTRATIONS_H
