//===- AccessPaths.h - The same object by the same access path --*- C++ -*-===//
//
// Two expressions name the same object when they reach it by the same path
// from the same declaration: 'cd_param[3].rmesh' twice, 'this->strm[0]' and
// 'strm[0]'. Indices are compared as constants ('strm[0]' is not
// 'strm[2]') or as the arithmetic of variables and constants they are
// ('stream[dev * n + 1]'); any other index (a call) makes the path unknown.
// Paths compare names, not values: two paths that differ may still hold one
// pointer (a copy of it), which the checks that use them accept, as StreamRef
// does for two stream variables.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_ACCESSPATHS_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_ACCESSPATHS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <string>

namespace cuda_async_lint {

struct AccessPath {
  std::string Key;

  bool operator==(const AccessPath &O) const { return Key == O.Key; }
};

/// The path of the object \p E names (a stream, an event, a pointer).
std::optional<AccessPath> accessPath(const clang::Expr *E,
                                     const clang::ASTContext &Ctx);

/// Which indices and offsets have taken every value by the time the path
/// is compared: those that use the counter of a loop that ran to its end
/// in between ('d_u[dev]' of a loop over the devices, seen after it).
using RangingIndex = llvm::function_ref<bool(const clang::Expr *)>;

/// The memory a pointer expression points to: the pointer's path and the
/// offset from it, written out ('h + crtIdx' is h at 'crtIdx'; '&p[i]' is p
/// at 'i'; '&x' is x's own memory, at none). An index \p Ranging takes is
/// any element ('d_u[*]'); an offset, anywhere in the buffer.
struct BufferPath {
  AccessPath Pointer;
  std::optional<std::string> Offset;
};
std::optional<BufferPath> bufferPath(const clang::Expr *E,
                                     const clang::ASTContext &Ctx,
                                     RangingIndex Ranging = nullptr);

/// Whether two buffers may share memory: one pointer (an element of any
/// index matching every element), at one offset or where either is the
/// pointer itself ('d_image[dev] + off' and 'd_image[dev]'). Two different
/// offsets written out are taken for two blocks of one buffer ('h + crtIdx'
/// and 'h + crtIdx + elemsInBlock', a pipeline's blocks): the sizes that
/// would prove it are not compared.
bool mayOverlap(const BufferPath &A, const BufferPath &B);

/// Whether \p A and \p B are two elements of one array, for the same
/// values of the variables their indices read: the indices differ by a
/// constant ('stream[dev * n + 1]' and 'stream[dev * n + 2]',
/// 'strm[0]' and 'strm[2]').
bool certainlyOtherElement(const clang::Expr *A, const clang::Expr *B,
                           const clang::ASTContext &Ctx);

/// Whether \p A and \p B are two elements of one array whatever the values
/// of the variables their indices read: constants that differ ('strm[0]',
/// 'strm[2]'), or variables times constant strides plus constants that no
/// values make equal ('stream[dev * 2]' and 'stream[dev * 2 + 1]', one
/// device's two streams, whichever devices, and whichever variables).
bool alwaysOtherElement(const clang::Expr *A, const clang::Expr *B,
                        const clang::ASTContext &Ctx);

/// Whether \p A and \p B name one object by one path, indices included
/// ('stream[dev * n + 1]' twice).
bool certainlySame(const clang::Expr *A, const clang::Expr *B,
                   const clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_ACCESSPATHS_H
