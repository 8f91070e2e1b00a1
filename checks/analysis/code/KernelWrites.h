//===- KernelWrites.h - What a kernel does to what it is given --*- C++ -*-===//
//
// A kernel launch is asynchronous work like a copy: until its stream is
// waited for, it may still read and write the memory its pointer arguments
// point to. Host code can touch that memory directly when it is managed
// (cudaMallocManaged) or page-locked and mapped (cudaHostAlloc, and every
// pinned allocation under unified addressing), and CUDA-aware MPI reads and
// writes device memory. Whether the kernel writes through a parameter is
// decided by its body where the unit has it, following local pointers
// derived from the parameter and the device functions it is handed to.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_KERNELWRITES_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_KERNELWRITES_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>

namespace cuda_async_lint {

enum class PointeeUse { None, Read, Write };

/// How the body of \p FD (a kernel or a device function) uses the memory
/// its pointer parameter \p Index points to: written (an assignment,
/// increment or compound assignment through it or a pointer derived from
/// it, or handing it to a function that writes it or whose body is not
/// here, as the atomics), only read, or not touched. std::nullopt when the
/// unit has no body for \p FD.
///
/// With a \p Path of fields, the memory a pointer member of the parameter
/// points to: 'storage.buf' of a struct given by value, 'storage->buf' of
/// one given by address, 'storage.inner.buf' of a nested one.
std::optional<PointeeUse>
pointeeUse(const clang::FunctionDecl *FD, unsigned Index,
           llvm::ArrayRef<const clang::FieldDecl *> Path = {});

/// The variable a lambda's closure member \p Field holds a copy of, where
/// \p Field is one: a kernel given the lambda is given the variable's
/// value. Its pointee's use is the lambda's (pointeeUse with \p Field as
/// the path), where the kernel calls it.
const clang::VarDecl *capturedVariable(const clang::FieldDecl *Field);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_KERNELWRITES_H
