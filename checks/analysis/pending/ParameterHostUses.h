//===- ParameterHostUses.h - What a call does to a buffer on the host -*- C++
//-*-//
//
// A call that takes a pointer to a buffer in flight races with the copy if
// the callee touches the buffer on the host: any touch of a device-to-host
// destination, a write of a host-to-device source. What the callee does is
// read from its body where the analysis has one: in this translation unit,
// or in another unit of the program, through the program's summaries.
//
// A function nothing is known of (declared here, defined elsewhere, no
// summary) is not taken to write what it is given: precision first, a
// 'void checksum(float *data, size_t n)' that only reads its buffer is no
// race with the copy still reading it. Its declaration makes a write
// certain in two ways (declaredAsWritten): it marks other pointer
// parameters const, so the others are its outputs (memcpy's 'void *dst,
// const void *src'); or its name begins with a verb that says it writes
// its argument ('fill', 'prepare', 'load', 'read', 'init', ...).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PENDING_PARAMETERHOSTUSES_H
#define CUDA_ASYNC_LINT_ANALYSIS_PENDING_PARAMETERHOSTUSES_H

#include "summaries/ProgramSummaries.h"
#include "clang/AST/Decl.h"
#include <map>
#include <memory>
#include <set>

namespace cuda_async_lint {

/// What a function may do on the host to the memory a pointer parameter
/// points to.
enum class HostUse {
  None,  ///< Nothing: it does not touch it, or only hands it to the GPU.
  Read,  ///< It may read it, never write it.
  Write, ///< It may write it (or release it).
};

/// Whether the declaration of \p FD makes a write through its pointer
/// parameter \p Param certain (the rules above).
bool declaredAsWritten(const clang::FunctionDecl *FD, unsigned Param);

/// The host uses of the parameters of one translation unit's functions,
/// each found once.
class ParameterHostUses {
public:
  explicit ParameterHostUses(clang::ASTContext &Ctx);
  /// The one of the translation unit of \p Ctx (UnitShared.h).
  static std::shared_ptr<ParameterHostUses>
  forTranslationUnit(clang::ASTContext &Ctx);

  /// What a call of \p FD (a user function, not a CUDA or library call)
  /// may do to what its parameter \p Param points to: its body's use where
  /// there is a body here, the program's summary of it where another unit
  /// defines it (the question is noted), else its declaration's.
  /// \p Where, if given, is set to the access in the body here that decides
  /// the answer (the first write, else the first read), for a note; null
  /// where no body here says.
  HostUse use(const clang::FunctionDecl *FD, unsigned Param,
              const clang::Expr **Where = nullptr);

  /// What the body of \p Def does to what its parameter \p Param points to:
  /// a write or release through it, through a local alias of it, or by a
  /// call that writes it; a write if it is stored anywhere (an alias the
  /// analysis does not follow).
  HostUse bodyUse(const clang::FunctionDecl *Def, unsigned Param,
                  const clang::Expr **Where = nullptr);

  /// Whether the body here of \p FD applies an atomic operation to what
  /// its parameter \p Param points to: it shares that memory with work that
  /// runs beside it (a kernel's system-scope atomics) on purpose.
  bool updatesAtomically(const clang::FunctionDecl *FD, unsigned Param);

private:
  struct BodyUse {
    HostUse Use = HostUse::None;
    const clang::Expr *Where = nullptr;
  };
  ProgramView Program;
  std::map<std::pair<const clang::FunctionDecl *, unsigned>, BodyUse> Done;
  std::set<const clang::FunctionDecl *> InProgress;
  std::map<std::pair<const clang::FunctionDecl *, unsigned>, bool> Atomics;
};

/// Whether \p Call is a compiler's atomic builtin (__sync_fetch_and_add,
/// __atomic_load_n, __c11_atomic_store, ...).
bool isAtomicBuiltin(const clang::CallExpr *Call);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PENDING_PARAMETERHOSTUSES_H
