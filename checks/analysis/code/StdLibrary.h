//===- StdLibrary.h - The C++ standard library's memory owners --*- C++ -*-===//
//
// std::vector, std::array and std::string own pageable storage (with the
// default allocator); std::unique_ptr and std::shared_ptr hold a pointer whose
// provenance is that of what they were given.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_STDLIBRARY_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_STDLIBRARY_H

#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"

namespace clang {
class FunctionDecl;
} // namespace clang

namespace cuda_async_lint {

/// std::vector<T, std::allocator<T>>, std::array<T, N>, std::basic_string
/// with std::allocator: containers whose data() is pageable memory they own.
bool isPageableContainer(clang::QualType T);

/// std::unique_ptr or std::shared_ptr.
/// A container whose elements live in memory its std::allocator got from
/// the heap: std::vector, std::basic_string, thrust::host_vector. Their
/// storage is pageable wherever the object itself lives (a member, behind a
/// reference), unlike std::array's, which is the object's own.
bool isPageableHeapContainer(clang::QualType T);

bool isSmartPointer(clang::QualType T);

/// std::make_unique, std::make_shared and their _for_overwrite forms, which
/// allocate with operator new.
bool isMakeSmartPointer(const clang::FunctionDecl *FD);

/// std::make_pair and std::make_tuple: they take forwarding references but
/// copy (decay) what they are given into a new object, so their arguments
/// are read, never written.
bool copiesItsArguments(const clang::FunctionDecl *FD);

/// True if \p FD's parameter \p I binds its argument for writing: a
/// reference to non-const, unless \p FD only copies its arguments.
bool bindsArgumentForWriting(const clang::FunctionDecl *FD, unsigned I);

/// Member functions of containers that hand out their storage or an
/// element: data, c_str, get, front, back, begin, end, at, ...
bool isContainerAccessor(llvm::StringRef Name);

/// Container members that change the contents or move the storage.
bool isContainerMutator(llvm::StringRef Name);

/// What a C library or <algorithm> function does to its pointer arguments:
/// the index of the one it writes and of the one it reads (-1: none).
struct LibraryAccess {
  llvm::StringLiteral Name;
  int Write;
  int Read;
};

/// The LibraryAccess of \p FD (memcpy, fread, std::copy, ...), if it is
/// one, at global scope or in namespace std.
const LibraryAccess *libraryAccess(const clang::FunctionDecl *FD);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_STDLIBRARY_H
