//===- ObjectReferences.h - Variables and objects in calls ------*- C++ -*-===//
//
// How the pending-transfer analysis names what an expression refers to:
// a local variable, a member of the function's own object, the object a
// member function is called on or a call is given.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_OBJECTREFERENCES_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_OBJECTREFERENCES_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include <set>

namespace cuda_async_lint {

const clang::VarDecl *declRefVar(const clang::Expr *E);

/// The pointer expression \p E points into, under casts: 'p' for 'p',
/// 'p + i' and '&p[i]' (a member, a call or any other expression as well as
/// a variable: the provenance analysis and the storage accessors ask).
const clang::Expr *pointerBase(const clang::Expr *E);

/// The variable whose memory \p E points into: 'p', 'p + n', '&p[i]',
/// '&x', 'p.data()' are all 'p' (or 'x').
const clang::VarDecl *baseVariable(const clang::Expr *E);

/// The variables whose memory the pointer arguments of \p Call point into
/// (baseVariable): what a launch or a copy may read or write.
std::set<const clang::VarDecl *> pointerArguments(const clang::CallExpr *Call);

/// The member of the function's own object \p E names: 'stream' or
/// 'this->stream' in a member function.
const clang::FieldDecl *thisMember(const clang::Expr *E);

/// The object a member function is called on, as BufferRef::Object names
/// it: a variable ('p.f()', 'p->f()'), or \p Caller for its own 'this'.
const clang::Decl *calledObject(const clang::CXXMemberCallExpr *Call,
                                const clang::FunctionDecl *Caller);

/// The member function a call runs: null where a virtual call may run an
/// override.
const clang::CXXMethodDecl *calledMethod(const clang::CXXMemberCallExpr *Call);

/// An object the call is given (by pointer, by reference, or as 'this'):
/// the callee may synchronize what the object's transfers run on.
const clang::Decl *objectArgument(const clang::Expr *Arg,
                                  const clang::FunctionDecl *Caller);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_OBJECTREFERENCES_H
