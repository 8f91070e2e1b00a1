//===- NvccDialect.h - nvcc-only syntax presented as clang's ---*- C++ -*-===//
//
// nvcc accepts a few spellings clang's CUDA parser does not. The one real
// code uses is a braced initializer list as a kernel launch's grid or block
// size, 'kernel<<<grid, {bx, by, 1}, 0, stream>>>(...)': nvcc reads it as a
// dim3, clang's parser takes only expressions there ("expected
// expression"), so the whole file fails. The parse reads every file through
// a file system that rewrites such a list in place, at the same length:
// '{bx, by, 1}' becomes '(bx, by, 1)'. Every offset, line and column stays
// the source's own (findings, notes and fix-its point into the real file),
// and only the launch's dimension, which no check reads, changes value.
//
// The same goes for a launch whose chevrons a formatter that does not know
// CUDA spaced, 'kernel << < grid, block >> > (args)': nvcc reads it, clang
// does not, and it is read as 'kernel <<<  grid, block >>>  (args)'. A
// '<< <' after the keyword 'operator' ('operator<< <T>(...)') is valid C++
// and stays as it is, as do nested templates closed with spaces.
//
// Another is 'extern "C"__global__' without a space: C++11 lexes
// '"C"__global__' as a string literal with a user-defined suffix, which
// clang rejects where GCC (and so nvcc) warns and reads two tokens. There
// 'extern "C"' is blanked out: a kernel's language linkage is nothing the
// checks read.
//
// Last, what a parse's errors show nvcc accepts and clang cannot read
// (run/NvccAcceptedErrors: a '__device__' nvcc merges into a host
// function's redeclaration, a primary template's own parameters written as
// template arguments) is blanked for a second parse: spans of given files
// read as spaces.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_NVCCDIALECT_H
#define CUDA_ASYNC_LINT_DRIVER_NVCCDIALECT_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem/UniqueID.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cuda_async_lint {

/// \p Text with each braced launch configuration argument written as a
/// parenthesized expression of the same length, each launch's spaced
/// chevrons written together, and each 'extern "C"' glued to a CUDA
/// function qualifier (__global__, __device__, __host__) blanked out, or
/// nothing if it has none of these. Comments, string and character
/// literals are left alone.
std::optional<std::string> rewriteNvccSyntax(llvm::StringRef Text);

/// A span of a file that a parse reads as spaces.
struct BlankedSpan {
  unsigned Offset = 0;
  unsigned Length = 0;
};

/// The spans of one file to read as spaces: the file is known by its
/// unique ID on disk, or by its name (an editor's unsaved buffer).
struct BlankedFile {
  llvm::sys::fs::UniqueID ID;
  std::string Name;
  std::vector<BlankedSpan> Spans;
};

using BlankedSpans = std::vector<BlankedFile>;

/// \p Text with \p Spans read as spaces; line breaks stay, so every line
/// and column does.
void blankSpans(std::string &Text, const std::vector<BlankedSpan> &Spans);

/// The real paths of the files a view rewrote: their bytes in memory are
/// not their bytes on disk, which what caches them must hash instead.
using RewrittenFiles = std::set<std::string>;

/// A view of \p Base whose files read as rewriteNvccSyntax makes them, with
/// \p Blanks' spans read as spaces, adding the real path of each file it
/// rewrites to \p Rewritten if given.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
makeNvccDialectFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base,
                          std::shared_ptr<RewrittenFiles> Rewritten = nullptr,
                          BlankedSpans Blanks = {});

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_NVCCDIALECT_H
