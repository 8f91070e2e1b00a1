//===- HostProvenance.h - What a host pointer points to ---------*- C++ -*-===//
//
// The provenance of pointers in one function: a flow-sensitive dataflow over
// clang's CFG through declarations, assignments, casts, pointer arithmetic,
// '&p' out-parameters of allocators, .data()/.get(), and the
// cudaHostRegister/cudaHostUnregister ranges. Calls into functions of the
// same translation unit and reads of struct fields and global pointers use
// summaries from a SummaryProvider. Paths that disagree join to unknown;
// parameters and anything that escapes are unknown.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_HOSTPROVENANCE_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_HOSTPROVENANCE_H

#include "ProvenanceLattice.h"
#include "api/MemoryKind.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FieldDecl;
class FunctionDecl;
class ParmVarDecl;
class SourceManager;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace cuda_async_lint {

struct CallShape;

/// The answer to "what does this pointer point to here?".
struct HostProvenance {
  /// std::nullopt: unknown (the analysis cannot tell, so checks stay silent).
  std::optional<MemoryKind> Kind;
  /// Where the memory was allocated or declared.
  llvm::SmallVector<Origin, 2> Origins;
  /// For Registered memory: the cudaHostRegister calls that pinned it.
  llvm::SmallVector<const clang::CallExpr *, 1> RegisteredBy;

  bool is(MemoryKind K) const { return Kind == K; }
};

/// True for the fields the analysis summarizes: raw pointers declared in
/// the user's code (not in system headers).
bool isSummarizedField(const clang::FieldDecl *FD);

/// The summarized field \p E names (a member expression), or null.
const clang::FieldDecl *userPointerField(const clang::Expr *E);

/// True for the member arrays of pointers the analysis summarizes like
/// pointer fields, all elements together ('float *slots[4]' declared in the
/// user's code), and the one \p E names, or null.
bool isSummarizedArrayField(const clang::FieldDecl *FD);
const clang::FieldDecl *userPointerArrayField(const clang::Expr *E);

/// True for the globals the analysis summarizes like fields: variables of
/// static storage (namespace scope, static members, static locals) declared
/// in the user's code, of pointer or array-of-pointer type, that host code
/// can store into (not __device__, __constant__ or __managed__).
bool isSummarizedGlobal(const clang::VarDecl *VD);

/// The field or global whose value the pointer lvalue \p E holds, or null:
/// a summarized field, an element of a summarized member array of pointers
/// ('p->slots[i]'), a summarized global pointer, or an element of a
/// summarized global array of pointers ('g[i]'). A global is named by its
/// canonical declaration.
const clang::ValueDecl *summarizedVariable(const clang::Expr *E);

/// The pointer parameter \p E points into, through pointer arithmetic and
/// casts ('p + i', '(char *)p'), or null.
const clang::ParmVarDecl *pointerParameterBase(const clang::Expr *E);

/// True if every use of global \p VD is in this translation unit: it has
/// internal linkage, or it is defined here and declared nowhere but the
/// main file (another unit could name it only by declaring it itself). Then
/// every store into it, and every registration of what it points to, is
/// one this unit's analysis sees.
bool storedOnlyHere(const clang::VarDecl *VD, const clang::SourceManager &SM);

/// Where origin \p O of this translation unit is (not an ExternalOrigin):
/// the allocating expression or the owning declaration.
clang::SourceLocation originLocation(Origin O);

/// A note for an origin: its location and a sentence saying what it is.
struct OriginNote {
  clang::SourceLocation Loc;
  std::string Message;
};
OriginNote describeOrigin(Origin O, MemoryKind K);
/// The same for any origin: one in another translation unit is noted on its
/// own line where its file can be read (the file joins \p SM), else at
/// \p Site with its place in the message.
OriginNote describeOrigin(Origin O, MemoryKind K, clang::SourceManager &SM,
                          clang::SourceLocation Site);

/// The call that must release the allocation \p O, if one can be named.
std::string originReleaser(Origin O);

/// The registration key that says some memory the analysis could not name
/// was unregistered (FunctionSummary::ExitRegistration).
extern const void *const UnknownUnregistration;

/// What a call of a function does, as its callers see it.
struct FunctionSummary {
  /// The provenance of the pointer it returns.
  PointerValue Returns = PointerValue::unknown();
  /// Per parameter: what it stores through a T** or T*& parameter on every
  /// path (std::nullopt: it stores nothing there).
  std::vector<std::optional<PointerValue>> OutParams;
  /// Per parameter: whether, on return, it has registered (Yes) or
  /// unregistered (No) the memory the parameter points to (std::nullopt:
  /// neither).
  std::vector<std::optional<Registration>> RegistersParam;
  /// On return, the registration of the memory it touched, by origin (what
  /// it returns or stores out, what globals and fields hold), and a Maybe
  /// under a key of its own where it unregistered memory the analysis could
  /// not name: then any registration may have been undone.
  std::map<const void *, RegistrationFact> ExitRegistration;
  /// Per tracked global it never stores into: whether, on return, it has
  /// registered (Yes) or unregistered (No) the memory the global holds.
  std::map<const clang::VarDecl *, Registration> RegistersGlobal;
  /// The program's answers its registrations (RegistersParam,
  /// ExitRegistration, RegistersGlobal) were made from: a caller's lookups
  /// read them (ProvenanceState::RegistrationAnswers).
  ProgramAnswers RegistrationAnswers;
};

/// Whether \p FD's pointer parameters may take what its call sites pass:
/// defined here and compiled for this translation unit's calls alone
/// (internal linkage, inline, or a template instantiation: another unit's
/// calls run its own copy); not virtual, not variadic, not main, with a
/// pointer parameter. (ProvenanceAnalysis::parameter adds what needs
/// the whole translation unit: the function is only ever called directly
/// and branches on no flag.)
bool takesCallSiteProvenance(const clang::FunctionDecl *FD);

/// The translation-unit knowledge one function's analysis draws on.
class SummaryProvider {
public:
  virtual ~SummaryProvider();
  /// The summary of \p FD, or null if there is none to trust: no body in the
  /// translation unit, a system header, or a recursive call being analysed.
  virtual const FunctionSummary *summary(const clang::FunctionDecl *FD) = 0;
  /// True if a call of \p FD, lacking a summary, may do anything to the
  /// memory its arguments point to (register it, say): a function of
  /// another translation unit.
  virtual bool isOpaque(const clang::FunctionDecl *FD) = 0;
  /// What the analysis takes of \p FD's summary, where \p FD is a function
  /// of another unit, whose summary is the program's answer
  /// (summaries/ProgramQueries.h): the effects of a call of shape \p Shape
  /// (CallEffects.h), the pointer it returns. Each gives the number a value
  /// made from the answer carries (PointerValue::madeFrom), which records
  /// the answer where it is read, or records it \p Now; none for a function
  /// of this unit, or where no record is kept.
  virtual std::optional<unsigned> callAnswer(const clang::FunctionDecl *FD,
                                             const CallShape &Shape, bool Now) {
    (void)FD, (void)Shape, (void)Now;
    return std::nullopt;
  }
  virtual std::optional<unsigned> returnAnswer(const clang::FunctionDecl *FD) {
    (void)FD;
    return std::nullopt;
  }
  /// True if \p Caller may read, after a call of \p Callee with argument
  /// \p Arg, a registration the call makes of origin \p O or, for
  /// parameterRegistrationRead, of what parameter \p PD points to. Only a
  /// callee of another unit is asked (RegistrationReads.h); any other's
  /// registrations count.
  virtual bool originRegistrationRead(Origin O, const clang::Expr *Arg,
                                      const clang::FunctionDecl *Caller,
                                      const clang::FunctionDecl *Callee) {
    (void)O, (void)Arg, (void)Caller, (void)Callee;
    return true;
  }
  virtual bool parameterRegistrationRead(const clang::ParmVarDecl *PD,
                                         const clang::Expr *Arg,
                                         const clang::FunctionDecl *Caller,
                                         const clang::FunctionDecl *Callee) {
    (void)PD, (void)Arg, (void)Caller, (void)Callee;
    return true;
  }
  virtual void noteOutParam(const clang::FunctionDecl *FD, unsigned Param) {
    (void)FD;
    (void)Param;
  }
  /// The provenance of what the field or global \p D holds
  /// (summarizedVariable), joined over every store to it in the translation
  /// unit (and, where installed, the program).
  virtual PointerValue stored(const clang::ValueDecl *D) = 0;
  /// True if some function registers memory of origin \p O with
  /// cudaHostRegister.
  virtual bool registeredAnywhere(Origin O) = 0;
  /// True if a function follows what it stores into global \p VD (a
  /// summarized global) flow-sensitively: no other unit can name it, its
  /// address does not escape, and no function that may store into it can
  /// be called but directly. Otherwise every read is stored(VD).
  virtual bool tracksGlobal(const clang::VarDecl *) { return false; }
  /// What tracked global \p VD holds when \p FD begins: for main, only
  /// what other functions store (it starts null, and main runs once); for
  /// any other function, stored(VD).
  virtual PointerValue globalAtEntry(const clang::VarDecl *VD,
                                     const clang::FunctionDecl *FD) {
    (void)FD;
    return stored(VD);
  }
  /// True if a call of \p Callee may store into tracked global \p VD: it
  /// or a function it calls (transitively) stores into it.
  virtual bool mayStoreGlobal(const clang::FunctionDecl *Callee,
                              const clang::VarDecl *VD) {
    (void)Callee;
    (void)VD;
    return true;
  }
  /// True if the scalar global \p VD changes only where main writes it
  /// (FixedFlag.h): a flag main sets once and later code tests.
  virtual bool writtenOnlyByMain(const clang::VarDecl *VD) {
    (void)VD;
    return false;
  }
  /// What pointer parameter \p PD receives, joined over every call of its
  /// function in the translation unit, where all of them are known.
  virtual PointerValue parameter(const clang::ParmVarDecl *PD);
  /// True if the arguments of calls of functions with external linkage
  /// matter: the program's summaries are being made, or hold every caller.
  virtual bool recordsProgramCalls() { return false; }
};

/// The provenance analysis of one function body, run once.
class FunctionProvenance {
public:
  /// \p Summaries may be null: then calls and fields are unknown.
  FunctionProvenance(const clang::FunctionDecl *FD, clang::ASTContext &Ctx,
                     SummaryProvider *Summaries);

  /// The provenance of \p Ptr, an argument of the CUDA API call or delete
  /// expression \p At, as it is when \p At runs. Unknown for code on paths
  /// the CFG does not reach.
  /// \p HostByContract: the call's own direction says \p Ptr is host memory
  /// (the source of a host-to-device copy): allocations of device memory
  /// it may point into on other paths are not what this call is given.
  HostProvenance pointerAt(const clang::Stmt *At, const clang::Expr *Ptr,
                           bool HostByContract = false) const;

  /// The raw value of \p Ptr at \p At, before registration is resolved.
  PointerValue valueAt(const clang::Stmt *At, const clang::Expr *Ptr) const;

  /// \p V, an unknown value of allocations of different kinds, narrowed to
  /// those that reach \p At through the cases of switches on one value
  /// (SwitchCorrelation.h); unknown where that leaves more than one kind.
  PointerValue caseCorrelated(const PointerValue &V,
                              const clang::Stmt *At) const;

  /// \p V, an unknown value of allocations of different kinds, without its
  /// device allocations; unknown where that leaves more than one kind.
  static PointerValue hostAllocations(const PointerValue &V);

  /// What callers of this function see.
  const FunctionSummary &summary() const { return Summary; }

  /// The value of argument \p Index of \p Call, a call of a function whose
  /// parameters may take call-site provenance (takesCallSiteProvenance, or
  /// takesProgramCallSites where the program's calls are recorded); unknown
  /// for any other.
  PointerValue argumentAt(const clang::CallExpr *Call, unsigned Index) const;

  /// The join of what this function stores into each field and global.
  const std::map<const clang::ValueDecl *, PointerValue> &stores() const {
    return Stores;
  }

private:
  SummaryProvider *Summaries;
  const clang::SourceManager *SM;
  const clang::FunctionDecl *Function;
  llvm::DenseSet<const clang::VarDecl *> Escaped;
  llvm::DenseSet<const clang::VarDecl *> PointerTables;
  llvm::DenseMap<const clang::VarDecl *, const clang::CallExpr *>
      RegisterResults;
  /// The allocations the function makes, which the registration facts of
  /// the states below number.
  std::unique_ptr<const AllocationSites> Allocations;
  std::map<const clang::Stmt *, ProvenanceState> StateAt;
  FunctionSummary Summary;
  std::map<const clang::ValueDecl *, PointerValue> Stores;
  std::map<const clang::CallExpr *, std::vector<PointerValue>> Arguments;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_HOSTPROVENANCE_H
