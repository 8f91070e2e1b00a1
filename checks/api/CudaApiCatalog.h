//===- CudaApiCatalog.h - What each CUDA call does, by table ----*- C++ -*-===//
//
// The one place that knows the CUDA API (and AMD's HIP runtime, which mirrors
// it): which calls copy, allocate, release, register, synchronize or launch,
// and which argument plays which role. The tables are CudaApis.def and
// HipApis.def; adding an API variant is a line there.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_API_CUDAAPICATALOG_H
#define CUDA_ASYNC_LINT_API_CUDAAPICATALOG_H

#include "ApiKind.h"
#include "GpuPlatform.h"
#include "MemoryKind.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class ParmVarDecl;
class VarDecl;
} // namespace clang

namespace cuda_async_lint {

/// CUDA's runtime and driver APIs, AMD's HIP runtime, GPU libraries of
/// either (cuBLAS, hipBLAS), the C library.
enum class ApiFamily { Runtime, Driver, Hip, CudaLibrary, HipLibrary, Libc };

/// Whether the call returns before the work is done.
enum class ApiMode { Async, Blocking };

struct ApiSpec {
  llvm::StringRef Name;
  ApiFamily Family;
  /// CUDA or HIP; none for the C library.
  std::optional<GpuPlatform> Platform;
  ApiKind Kind;
  ApiMode Mode = ApiMode::Blocking;
  CopyDirection Direction = CopyDirection::Descriptor;
  /// Allocate: the memory returned. Release: the memory it must be given.
  std::optional<MemoryKind> Memory;
  /// The parameter list's roles; std::nullopt for '-'.
  std::vector<std::optional<ArgRole>> Roles;
  /// Allocate: the call that must release the memory. Register: the call
  /// that unregisters it.
  llvm::StringRef Counterpart;
  /// A KernelLaunch row that carries a <<<...>>> launch's configuration
  /// (__cudaPushCallConfiguration): part of a launch, not one of its own.
  bool ConfiguresLaunch = false;

  /// The index of the parameter with role \p R, if any.
  std::optional<unsigned> argIndex(ArgRole R) const;
  /// The argument of \p Call with role \p R, if present in the call (a
  /// defaulted argument is present as a CXXDefaultArgExpr).
  const clang::Expr *arg(const clang::CallExpr *Call, ArgRole R) const;
};

/// The roles a catalog's role string spells, one word per parameter
/// ('dst src size kind stream'; '-' for none). A word no role has is a
/// fatal error: the tables are the program's own.
std::vector<std::optional<ArgRole>> parseRoles(llvm::StringRef Roles);

/// Every catalogued API.
llvm::ArrayRef<ApiSpec> allApis();

/// The API named \p Name once the headers' renaming suffixes (_v2, _v3, _ptsz,
/// _ptds, and HIP's _spt) are stripped, or null.
const ApiSpec *lookupApi(llvm::StringRef Name);

/// True if \p Name is a per-thread default stream spelling the headers
/// rename a call to (cudaMemcpyAsync_ptsz, cudaMemcpy_ptds,
/// hipMemcpyAsync_spt).
bool isPerThreadSpelling(llvm::StringRef Name);

/// Whether \p FD is named and declared where the C and C++ libraries' and
/// CUDA's functions are: at global scope or in namespace std. A user's own
/// 'mylib::free' is not the C library's.
bool isGlobalOrStdFunction(const clang::FunctionDecl *FD);

/// The catalogued API \p FD declares, or null. Only functions at global
/// scope or in namespace std count (isGlobalOrStdFunction). A project's own
/// APIs (ProjectApis.h) are not looked up.
const ApiSpec *lookupCatalogApi(const clang::FunctionDecl *FD);

/// The API \p FD declares, or null: a project's own (ProjectApis.h), else a
/// catalogued one (lookupCatalogApi).
const ApiSpec *lookupApi(const clang::FunctionDecl *FD);

/// The API \p Call calls directly, or null.
const ApiSpec *lookupApi(const clang::CallExpr *Call);

/// The variable argument \p Arg of \p Call writes, if the call is to the
/// CUDA or HIP runtime or driver (a function of their system headers:
/// cudaGetDeviceCount(&n), cuDeviceGetCount(&n)) and the argument is '&x'
/// for a parameter that points to a non-const scalar. Those calls write
/// such out-parameters before they return and keep no pointer to them
/// (unlike an asynchronous copy's 'void *' destination, or a callback's
/// user data). Null otherwise.
const clang::VarDecl *runtimeOutArgument(const clang::CallExpr *Call,
                                         unsigned Arg);

/// The operand of '&x' under any casts, as out-parameters are passed:
/// 'p' in cudaMallocHost((void **)&p, n). Null for anything else.
const clang::Expr *addressOfOperand(const clang::Expr *E);

/// The value of the integer constant expression \p E, a defaulted argument
/// through its default; std::nullopt if it is none.
std::optional<int64_t> integerConstant(const clang::Expr *E,
                                       const clang::ASTContext &Ctx);

/// Error codes the analyses reason about, as cudaError_t and CUresult number
/// them.
enum class CudaErrorCode { Success = 0, NotReady = 600 };

/// The error code enumerator \p E names (cudaSuccess, CUDA_SUCCESS,
/// cudaErrorNotReady, CUDA_ERROR_NOT_READY, ...), if it names one of them.
std::optional<CudaErrorCode> cudaErrorCode(const clang::Expr *E);

/// A branch condition that compares a result with an error code: 'r' and
/// '!r' (with cudaSuccess: 'r' is true when r failed), 'r == C', 'r != C',
/// 'C == r'.
struct ResultTest {
  const clang::Expr *Result;
  CudaErrorCode Code;
  /// Whether the condition is true when Result equals Code.
  bool TrueIfEqual;
};
/// The comparison \p Cond makes; std::nullopt for an equality that names
/// no error code cudaErrorCode knows.
std::optional<ResultTest> resultTest(const clang::Expr *Cond);

/// The pointer \p Call releases, if it calls a releaser (free, cudaFreeHost,
/// cudaFree, ...) or realloc, which releases its 'ptr' argument.
const clang::Expr *releasedPointer(const clang::CallExpr *Call,
                                   const ApiSpec &Spec);

/// The value a parameter has at every call of its function, where the
/// analysis knows one (ProvenanceAnalysis::constantParameter).
using ParameterConstant =
    llvm::function_ref<std::optional<int64_t>(const clang::ParmVarDecl *)>;

/// The direction of the copy \p Call (a call of \p Spec), reading its 'kind'
/// argument when the API has one: a constant, or a parameter that
/// \p Parameter says every call passes as one. std::nullopt when it cannot
/// be known.
std::optional<CopyDirection> copyDirection(const clang::CallExpr *Call,
                                           const ApiSpec &Spec,
                                           const clang::ASTContext &Ctx,
                                           ParameterConstant Parameter = {});

/// One argument of a copy that may be host memory.
struct HostSide {
  const clang::Expr *Arg;
  /// True for the destination (the host is written), false for the source.
  bool IsDestination;
  /// True where the copy's direction names this side host memory (not
  /// cudaMemcpyDefault, whose sides may be either).
  bool HostByDirection = true;
};

/// The arguments of copy \p Call that name host memory, by direction: the
/// source of a host-to-device copy, the destination of a device-to-host copy,
/// both sides of host-to-host and of cudaMemcpyDefault copies (there, only
/// memory proven to be host memory is host memory). Empty when the direction
/// is unknown or the sides are in a descriptor.
std::vector<HostSide> hostSides(const clang::CallExpr *Call,
                                const ApiSpec &Spec,
                                const clang::ASTContext &Ctx,
                                ParameterConstant Parameter = {});

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_API_CUDAAPICATALOG_H
