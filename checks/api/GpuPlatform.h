//===- GpuPlatform.h - CUDA or HIP, and what each calls things --*- C++ -*-===//
//
// The checks reason about CUDA and AMD's HIP runtime alike; their messages
// name the runtime's own calls. A finding's runtime is the one of the call it
// is about, else the translation unit's language (-x hip is HIP).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_API_GPUPLATFORM_H
#define CUDA_ASYNC_LINT_API_GPUPLATFORM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
} // namespace clang

namespace cuda_async_lint {

struct ApiSpec;

enum class GpuPlatform { Cuda, Hip };

/// The calls and words of one runtime (GpuPlatforms.def).
struct PlatformApis {
  llvm::StringRef Registrar;
  llvm::StringRef PinnedAllocators;
  llvm::StringRef Register;
  llvm::StringRef Unregister;
  llvm::StringRef StreamSynchronize;
  llvm::StringRef PerThreadStream;
  llvm::StringRef StreamRecord;
  llvm::StringRef EventRecord;
};

const PlatformApis &platformApis(GpuPlatform P);

/// Every runtime's calls and words.
llvm::ArrayRef<PlatformApis> allPlatforms();

/// The runtime a translation unit is written for: HIP when parsed as HIP.
GpuPlatform platformOf(const clang::ASTContext &Ctx);

/// The runtime of \p Api; a C library call has none, and takes the
/// translation unit's.
GpuPlatform platformOf(const ApiSpec *Api, const clang::ASTContext &Ctx);

/// The runtime of the call \p Call: its catalogued API's, else the
/// translation unit's. A <<<...>>> launch's is its configuration call's.
GpuPlatform platformOf(const clang::CallExpr *Call,
                       const clang::ASTContext &Ctx);

/// The runtime holding the page-locked registrations \p By: the first
/// catalogued registration's, else the translation unit's (a helper that
/// registered).
GpuPlatform registrarOf(llvm::ArrayRef<const clang::CallExpr *> By,
                        const clang::ASTContext &Ctx);

/// The call that undoes the registrations \p By: each catalogued
/// registration's counterpart (cuMemHostRegister: cuMemHostUnregister), the
/// runtime's own for a helper that registered. Empty if they disagree.
std::string unregisterCall(llvm::ArrayRef<const clang::CallExpr *> By,
                           const clang::ASTContext &Ctx);

/// The call a message advises to undo the registrations \p By with:
/// unregisterCall's, or where they disagree the registrar's own.
std::string unregisterAdvice(llvm::ArrayRef<const clang::CallExpr *> By,
                             const clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_API_GPUPLATFORM_H
