//===- FileUri.h - Paths as URIs --------------------------------*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_FILEURI_H
#define CUDA_ASYNC_LINT_DRIVER_FILEURI_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace cuda_async_lint {

/// RFC 3986: everything but unreserved characters and '/' is
/// percent-encoded.
std::string percentEncode(llvm::StringRef Path);

/// The file:// URI of the absolute path \p AbsolutePath (RFC 8089).
std::string fileUri(llvm::StringRef AbsolutePath);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_FILEURI_H
