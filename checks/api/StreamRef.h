//===- StreamRef.h - Which stream (or event) an argument names --*- C++ -*-===//
//
// Stream identity, as far as the host code shows it: the legacy default
// stream (0, NULL, nullptr, cudaStreamLegacy, an omitted argument, a
// <<<g, b>>> launch), the per-thread default stream (cudaStreamPerThread),
// a variable or field, an element of an array of streams, or unknown.
// Parameters are distinct from each other; two names are one stream only
// when they are the same declaration. Events are named the same way.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_API_STREAMREF_H
#define CUDA_ASYNC_LINT_API_STREAMREF_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <string>
#include <tuple>

namespace cuda_async_lint {

struct StreamRef {
  enum class Kind { Legacy, PerThread, Named, ArrayElement, Unknown };
  Kind K = Kind::Unknown;
  /// Named: the VarDecl or FieldDecl. ArrayElement: the array's VarDecl or
  /// FieldDecl, or the stream field of an array's elements ('plan[i].s');
  /// every element counts as one stream for synchronization.
  const clang::ValueDecl *Decl = nullptr;

  static StreamRef legacy() { return {Kind::Legacy, nullptr}; }
  static StreamRef unknown() { return {Kind::Unknown, nullptr}; }

  bool isDefault() const { return K == Kind::Legacy || K == Kind::PerThread; }
  bool operator==(const StreamRef &O) const {
    return K == O.K && Decl == O.Decl;
  }
  bool operator<(const StreamRef &O) const {
    return std::tie(K, Decl) < std::tie(O.K, O.Decl);
  }
};

/// cudaStream_t, CUstream, hipStream_t.
bool isStreamType(clang::QualType T);
/// cudaEvent_t, CUevent, hipEvent_t.
bool isEventType(clang::QualType T);

/// True if \p T is a class that converts to a stream or event handle: an
/// RAII wrapper with 'operator cudaStream_t() const'.
bool isHandleWrapperType(clang::QualType T);

/// The object a stream or event argument names through its class's
/// conversion to the handle ('gpuStreams[gpu]' for a std::vector of RAII
/// stream wrappers): each wrapper object owns its own stream, so the object
/// is the stream's identity. Any other \p E is returned as it is.
const clang::Expr *handleObject(const clang::Expr *E);

/// The stream (or event) argument \p E names; null \p E is an omitted
/// argument: the legacy default stream.
StreamRef streamRef(const clang::Expr *E);

/// True if \p Stream is cudaStreamLegacy written out (((cudaStream_t)0x1)):
/// the legacy stream even in per-thread default stream builds, where 0,
/// NULL and an omitted stream mean the per-thread stream.
bool isExplicitLegacyStream(const clang::Expr *Stream);

/// True if \p S (spelled \p Arg, null when omitted) is the per-thread
/// default stream: cudaStreamPerThread, or in a \p PerThread build (see
/// usesPerThreadDefaultStream) 0, NULL or an omitted stream.
bool isPerThreadStream(const StreamRef &S, const clang::Expr *Arg,
                       bool PerThread);

/// True if \p FD was compiled with --default-stream per-thread
/// (CUDA_API_PER_THREAD_DEFAULT_STREAM): the CUDA headers then spell the
/// stream-ordered calls it makes as their _ptsz/_ptds variants (ROCm's as
/// _spt, for HIP_API_PER_THREAD_DEFAULT_STREAM or clang's
/// -fgpu-default-stream=per-thread); a function that makes no such call, by
/// its unit's declaration of cudaMemcpyAsync_ptsz.
bool usesPerThreadDefaultStream(const clang::FunctionDecl *FD);

/// How a message spells \p Arg: its source text, or "the legacy default
/// stream" / "cudaStreamPerThread" (HIP: "hipStreamPerThread").
std::string streamSpelling(const StreamRef &S, const clang::Expr *Arg,
                           const clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_API_STREAMREF_H
