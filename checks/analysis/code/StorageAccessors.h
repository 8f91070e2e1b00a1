//===- StorageAccessors.h - Member functions that return storage -*- C++ -*-=//
//
// A class that owns a buffer often hands it out through an accessor rather
// than the field: Kaldi's 'h_lanes_counters_.lane(i)' returns
// '&MutableData()[i * ncols_]', and MutableData() returns 'data_'. A copy
// into 'm.lane(0)' and a read of 'm.lane(k)' touch one buffer, the one the
// object 'm' owns, as 'v.data()' does for a std::vector.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_STORAGEACCESSORS_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_STORAGEACCESSORS_H

#include "clang/AST/DeclCXX.h"

namespace cuda_async_lint {

/// The member \p MD hands out, if it returns a pointer into its object's own
/// storage or a reference to an element of it: a
/// reference to an element of it: a non-virtual member function of the
/// user's code, defined in this translation unit, whose body ends in its one
/// return, of a pointer member of 'this' (through casts, '&m[i]' and
/// 'm + i') or of a call of another such member function of 'this'; for a
/// reference, of an element of one ('return h_[i + ld * j];').
const clang::FieldDecl *ownStorage(const clang::CXXMethodDecl *MD);

/// True if an object of class \p RD hands out its storage through such an
/// accessor (of its own or of a base): a member of that class is a buffer.
bool handsOutStorage(const clang::CXXRecordDecl *RD);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_STORAGEACCESSORS_H
