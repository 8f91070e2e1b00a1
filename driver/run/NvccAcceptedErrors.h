//===- NvccAcceptedErrors.h - What clang rejects and nvcc accepts -*- C++ -*-=//
//
// clang 22 rejects some code that the compilers behind nvcc accept: gcc 12
// for C files, g++ 12 for C++ files, and nvcc 13's front end (then gcc on
// what it emits) for CUDA files. Every diagnostic clang makes an error by
// default was decided (docs/nvcc-dialect/default-errors.tsv); those the
// compilers accept are listed in NvccAcceptedDiagnostics.def and accepted
// in one of three ways:
// - Downgrade: a warning or extension that is an error by default is mapped
//   below an error before the parse, so that clang goes on as it does for
//   a warning, which is how gcc reads the construct (an incompatible
//   pointer passed in C, a non-constant narrowing in a braced initializer).
//   It is mapped to a remark, not a warning, so that '-w' (which the tool
//   passes) does not hide it: it is still reported beside the findings.
// - AfterParse: an error whose construct leaves the declaration and its
//   uses in the AST (an initialized variable-length array in C++) is
//   accepted once the translation unit is parsed.
// - Rewrite: an error whose construct nvcc's front end accepts and clang's
//   cannot read is read again, rewritten at the same length
//   (nvccRewritesFor, compile/NvccDialect).
// Besides, an error inside the body of a device-only function (__global__,
// or __device__ without __host__) leaves every host function's AST intact:
// clang is stricter than nvcc in device code, which the checks never read.
// A file whose every error is accepted is analysed, and these errors are
// reported beside the findings instead of failing the file.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_NVCCACCEPTEDERRORS_H
#define CUDA_ASYNC_LINT_DRIVER_NVCCACCEPTEDERRORS_H

#include "ParseErrors.h"
#include "compile/NvccDialect.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace cuda_async_lint {

/// The compilers whose verdict counts for a file, as a set of bits.
enum NvccLanguage : unsigned {
  /// gcc: a C file.
  C = 1,
  /// g++: a C++ file.
  Cxx = 2,
  /// nvcc: its front end, then gcc on what it emits.
  Cuda = 4,
};

/// The compiler of a file parsed with \p LO: none for HIP (hipcc is clang)
/// and Objective-C.
unsigned nvccLanguageOf(const clang::LangOptions &LO);

/// How a diagnostic of NvccAcceptedDiagnostics.def is accepted.
enum class NvccAcceptance { Downgrade, AfterParse, Rewrite };

struct NvccAcceptedDiagnostic {
  unsigned ID;
  const char *Name;
  NvccAcceptance How;
  /// NvccLanguage bits.
  unsigned Languages;
};

/// NvccAcceptedDiagnostics.def, in its order.
llvm::ArrayRef<NvccAcceptedDiagnostic> nvccAcceptedDiagnostics();

/// Maps below an error each diagnostic that the compiler of \p LO's files
/// accepts and clang makes an error by default (Downgrade), before the
/// parse; one the command already keeps from being an error
/// (-Wno-error=<group>) stays as it is.
void downgradeNvccAccepted(clang::DiagnosticsEngine &Diags,
                           const clang::LangOptions &LO);

/// True if \p DiagID is one downgradeNvccAccepted maps below an error.
bool isNvccDowngraded(unsigned DiagID);

/// True if clang's error \p DiagID stands for a construct that the
/// compiler of \p LO's files accepts and that leaves the declaration and
/// its uses in the AST (AfterParse).
bool isHostDialectError(unsigned DiagID, const clang::LangOptions &LO);

/// True if each error (\p Locations and \p IDs in step) is one nvcc accepts:
/// a host dialect error, or one located inside the definition of a
/// device-only function of \p Ctx's translation unit (a lambda's, too), and
/// in C++ and CUDA inside the body of a template the unit never
/// instantiates, or at a declaration of a function clang predeclares as a
/// builtin. An error without a location ("too many errors emitted") is
/// never accepted.
bool onlyErrorsNvccAccepts(const std::vector<clang::SourceLocation> &Locations,
                           const std::vector<unsigned> &IDs,
                           clang::ASTContext &Ctx);

/// What a second parse reads as blanks so that clang reads as nvcc does
/// what \p Errors (of the parse of \p Ctx) say it rejected (Rewrite): the
/// '__device__' of each declaration of a function redeclared with other
/// execution spaces, and the template arguments of a primary function
/// template defined as 'f<T>'. Empty if none.
BlankedSpans nvccRewritesFor(const ParseErrorCollector &Errors,
                             clang::ASTContext &Ctx);

/// True if \p DiagID is an error a rewrite of nvccRewritesFor answers.
bool isNvccRewritten(unsigned DiagID);

/// clang's name of diagnostic \p DiagID ("err_variable_object_no_init"),
/// or "diagnostic N" for one it has no name for.
std::string diagnosticName(unsigned DiagID);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_NVCCACCEPTEDERRORS_H
