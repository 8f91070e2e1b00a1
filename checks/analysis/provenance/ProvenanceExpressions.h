//===- ProvenanceExpressions.h - What the dataflow names --------*- C++ -*-===//
//
// The expressions and variables the host-pointer provenance dataflow
// tracks: locals by value, fields of local objects, summarized globals
// and fields, the pointer an address computation starts from, and the
// parameters calls bind. HostProvenance.h declares those its clients use.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCEEXPRESSIONS_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCEEXPRESSIONS_H

#include "clang/AST/Type.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace cuda_async_lint::provenance {

/// Pointer-like locals the dataflow tracks by value.
bool isTrackedType(clang::QualType T);

/// The local of a tracked type \p E names (a parameter included), or null.
const clang::VarDecl *asTrackedLocal(const clang::Expr *E);

/// True for a local array of structs ('Plan plan[8];'), whose elements'
/// fields the dataflow tracks as one object's.
bool isLocalObjectArray(const clang::VarDecl *VD);

/// A local struct object ('Arrays h;'), or an element of a local array of
/// structs ('plan[i]', and the array itself), whose fields the dataflow
/// tracks per object while its address does not escape.
const clang::VarDecl *asLocalObject(const clang::Expr *E);

/// A pointer field of one object the dataflow can name: 'h.data' of a local
/// struct, or 'p->data' of a tracked local pointer.
struct ObjectMember {
  const clang::VarDecl *Base;
  const clang::FieldDecl *Field;
  /// 'p->data': another pointer may alias the object.
  bool Arrow;
  /// 'plan[i].data': one element of a local array of structs, whose fields
  /// all elements share (a store joins).
  bool Element = false;
};

/// The field of one object \p E names, if the dataflow can name it.
std::optional<ObjectMember> objectMember(const clang::Expr *E);

/// The one pointer an integer expression computes an address from, as
/// alignment macros do ('((size_t)p + a - 1) & ~(a - 1)'): integer casts,
/// '+', '-', '&', '|', '~' over one pointer cast to an integer and integers
/// that are not. Null for anything else (two pointers, a call, a load of an
/// integer variable that may hold an address).
const clang::Expr *addressArithmeticBase(const clang::Expr *E);

/// The summarized global \p E points into (pointerBase): a global pointer
/// or an element of a global array of pointers. Null for anything else.
const clang::VarDecl *globalBase(const clang::Expr *E);

/// A parameter a function can store a pointer through: T** or T*&.
bool isOutParameterType(clang::QualType T);

/// True for a __managed__ variable. clang drops the 'managed' attribute in
/// CUDA mode, so the declaration's spelling is read instead.
bool isManagedVariable(const clang::VarDecl *VD);

/// The index of the parameter argument \p Arg of \p Call binds to: member
/// operator calls pass the object as argument 0.
std::optional<unsigned> parameterIndex(const clang::CallExpr *Call,
                                       const clang::FunctionDecl *FD,
                                       unsigned Arg);

/// The cudaHostRegister call whose result \p E is: the call itself or a
/// local variable initialized with it.
const clang::CallExpr *registerResult(
    const clang::Expr *E,
    const llvm::DenseMap<const clang::VarDecl *, const clang::CallExpr *>
        &Results);

} // namespace cuda_async_lint::provenance

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCEEXPRESSIONS_H
