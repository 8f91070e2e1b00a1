//===- MemberRegistration.h - Buffer members registered for life -*- C++
//-*-===//
//
// A class that keeps a pageable buffer member registered with the CUDA
// driver registers it in one member function (its constructor, an init)
// and must unregister it before it frees it in another (its destructor).
// Registration is otherwise followed within a function and through the
// helpers it calls; this is the class-wide view for one member.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_MEMBERREGISTRATION_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_MEMBERREGISTRATION_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

namespace cuda_async_lint {

/// The registration of field \p Member of the class of \p Releaser that is
/// still in force when \p Releaser runs, if the class shows one: one member
/// function other than \p Releaser, defined in this translation unit, is
/// the only one that assigns the member and registers it
/// (cudaHostRegister(member, ...)) unconditionally, in its body's own
/// statements, after its last assignment (\p Releaser may set it to null:
/// 'delete[] h; h = nullptr;'); and no member function of the class
/// unregisters it. Null otherwise.
const clang::CallExpr *
registrationInForce(const clang::FieldDecl *Member,
                    const clang::CXXMethodDecl *Releaser);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_MEMBERREGISTRATION_H
