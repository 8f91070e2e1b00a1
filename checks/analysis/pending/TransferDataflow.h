//===- TransferDataflow.h - Transfers in flight, step by step ---*- C++ -*-===//
//
// The transfer functions of the pending-transfer dataflow: what each
// CFG element issues, synchronizes or accesses, and what each branch
// edge says of loop counters, polling loops and branch facts.
// TransferSynchronization.cpp holds what a sync removes.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PENDING_TRANSFERDATAFLOW_H
#define CUDA_ASYNC_LINT_ANALYSIS_PENDING_TRANSFERDATAFLOW_H

#include "HostAccess.h"
#include "PendingState.h"
#include "analysis/code/CallResults.h"
#include "analysis/provenance/ProvenanceAnalysis.h"
#include "analysis/sync/DeviceWaitLoops.h"
#include "api/CudaApiCatalog.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/SmallVector.h"
#include <map>
#include <set>
#include <vector>

namespace cuda_async_lint::pending {

/// The fields from a record to one of its (nested) pointer members.
using MemberPath = llvm::SmallVector<const clang::FieldDecl *, 2>;

/// Erases the elements of \p S that \p P holds for.
template <typename Set, typename Pred> void eraseIf(Set &S, Pred P) {
  for (auto It = S.begin(); It != S.end();)
    It = P(*It) ? S.erase(It) : std::next(It);
}

/// The pending-transfer dataflow of one function, as solveForward runs it:
/// per disjunct, what each element issues, synchronizes and accesses; per
/// edge, what its condition says.
/// What of a function's body decides which device memory its work is
/// followed on (one walk of it).
struct DeviceMemoryScope {
  /// It issues work on more than one stream (the legacy and per-thread
  /// streams count; an element of an array of streams may be any of them):
  /// for races between the streams.
  bool SeveralStreams = false;
  /// It calls a host communication function (MPI), which reads and writes
  /// the device memory kernels write.
  bool Communicates = false;
  /// The variables it assigns or increments after their declaration.
  std::set<const clang::VarDecl *> Reassigned;
};
DeviceMemoryScope deviceMemoryScope(const clang::FunctionDecl *FD);

class TransferDataflow {
public:
  using State = PendingState;

  /// \p Seed: transfers in flight at the entry (a member function's
  /// stand-ins for its callers' transfers).
  TransferDataflow(const clang::FunctionDecl *FD, clang::ASTContext &Ctx,
                   ProvenanceAnalysis &Provenance, SyncSummaries &Syncs,
                   const HostAccessFinder &Accesses, TransferSet Seed = {});

  State entryState() const;
  void join(State &Into, const State &From) const { joinStates(Into, From); }

  void transfer(const clang::CFGElement &E, State &S) const;

  /// The reporting pass: the same transfer, recording hazards.
  void replay(const clang::CFGElement &E, State &S,
              std::vector<TransferHazard> &Hazards) const;

  bool transferEdge(const clang::CFGBlock &From, unsigned SuccIndex,
                    State &S) const;

private:
  /// Brings \p S to its canonical form where \p E may have changed what
  /// the disjuncts assume (an increment of a counter, a variable written or
  /// gone out of scope) and so made two of them one; other elements change
  /// only what is pending, and the next edge or join merges those. Doing it
  /// after every element made long blocks cost the square of their
  /// disjuncts' comparisons per element.
  static void normalizeAfter(const clang::CFGElement &E, State &S);

  /// The stream (or event) \p E names, through local copies of it:
  /// 'cudaStream_t s2 = s' is s.
  StreamRef stream(const clang::Expr *E) const;

  /// 'i > 0' and friends, for a loop counter i: true exactly where i was
  /// incremented.
  void counterEdge(const clang::Expr *Cond, unsigned SuccIndex, State &S) const;

  /// 'while (cudaStreamQuery(s) == cudaErrorNotReady)': leaving the loop
  /// means the stream is done; likewise cudaEventQuery for an event.
  void pollingEdge(const clang::Expr *Cond, unsigned SuccIndex, State &S) const;

  /// 'if (cudaMemcpyAsync(...) != cudaSuccess)', or a test of a local that
  /// holds its result (error-checking macros): on the edge where the call
  /// failed, the runtime enqueued nothing, so nothing it issued is in
  /// flight there.
  void failureEdge(const clang::Expr *Cond, unsigned SuccIndex, State &S) const;

  /// True if work on \p S (a sync of it, or an event recorded on it) waits
  /// for \p P: the same stream, or one that may be it.
  bool waitsFor(const StreamRef &S, const PendingTransfer &P) const;

  /// A sync covering \p S: of the stream itself, or one that may be it.
  /// Where \p Written, the stream as written, is known, work on another
  /// element of the array it names, whichever the index's values
  /// ('stream[dev * 2 + 1]' after a sync of 'stream[dev * 2]'), stays.
  void syncStream(Disjunct &D, const StreamRef &S,
                  const clang::Expr *Written = nullptr) const;

  void syncAll(Disjunct &D) const { D.Pending.clear(); }

  /// Blocking copies and memsets wait for the legacy default stream, and so
  /// for every stream not created with cudaStreamNonBlocking.
  void syncBlocking(Disjunct &D) const;

  /// A sync of \p Event, named by \p Arg (null: not written here).
  void syncEvent(Disjunct &D, const StreamRef &Event,
                 const clang::Expr *Arg) const;
  /// A sync of the event \p Arg names.
  void syncEvent(Disjunct &D, const clang::Expr *Arg) const {
    syncEvent(D, stream(Arg), Arg);
  }

  void transfer(const clang::CFGElement &E, Disjunct &D,
                std::vector<TransferHazard> *Hazards) const;

  void synchronize(const clang::CallExpr *Call, Disjunct &D) const;

  /// \p Written was assigned by \p St: transfers on buffers it named are
  /// forgotten, slices it indexed are earlier slices (BufferRef::Stale),
  /// and slots of a ring it moved are slots behind (SlotRings.h). Where
  /// \p Restarts (a loop counter set to 0 again: the next loop over the
  /// same slices), a slice it indexed, or an earlier one, may be the one it
  /// names again: any slice.
  static void renameWritten(TransferSet &Transfers,
                            const clang::VarDecl *Written,
                            const clang::Stmt *St, bool Restarts,
                            const clang::ASTContext &Ctx);

  /// Whether \p St, writing the loop counter \p Written, sets it to 0
  /// again (its declaration run again, or 'i = 0') rather than moving it on.
  bool restartsCounter(const clang::Stmt *St,
                       const clang::VarDecl *Written) const;

  /// True if \p A releases with free or delete the host memory of the
  /// copy \p P, of a kind the analysis cannot name: pageable by the
  /// program's own word, so the copy was staged.
  bool releasedAsPageable(const HostAccess &A, const PendingTransfer &P) const;
  void access(const HostAccess &A, Disjunct &D,
              std::vector<TransferHazard> *Hazards) const;

  /// An async copy: its host side is now in flight on its stream, unless
  /// it is memory such a copy cannot be asynchronous with (pageable: that
  /// is cuda-async-pageable-copy's finding) or no host memory at all.
  void issue(const clang::CallExpr *Call, Disjunct &D,
             std::vector<TransferHazard> *Hazards) const;

  /// Work issued on stream \p S (\p Op) that touches \p Buffer on the
  /// device (\p Arg names it): a race with work in flight on it on another
  /// stream, not ordered before \p S (an event it waited for, the legacy
  /// stream), where either writes.
  void deviceAccess(const clang::CallExpr *Op, const clang::Expr *Arg,
                    const BufferRef &Buffer, bool Writes, const StreamRef &S,
                    Disjunct &D, std::vector<TransferHazard> *Hazards) const;

  /// Work issued on the legacy default stream waits for the earlier work of
  /// every blocking stream, and work issued on a blocking stream waits for
  /// the legacy stream's earlier work: a sync of the later stream (or an
  /// event recorded on it) covers what it so waits for.
  void orderAroundLegacyStream(const clang::CallExpr *Call, Disjunct &D) const;

  /// \p A and \p B launch the same kernel with the same arguments, whose
  /// variables the function never reassigns: they touch the same elements.
  bool sameLaunch(const clang::CallExpr *A, const clang::CallExpr *B) const;

  /// A nonblocking MPI call leaves its buffers in flight on its request;
  /// a call naming the request (MPI_Wait, MPI_Waitall, ..., or a function
  /// of the user's given it) completes it (MpiRequests.cpp).
  void mpiRequests(const clang::CallExpr *Call, Disjunct &D) const;

  /// A kernel launch: what it is given that the host can reach (managed,
  /// pinned or registered memory) is now in flight on its stream, written
  /// where its body writes it (or its body is not here and the parameter
  /// is not const), else read; and the device memory it writes, where the
  /// function hands buffers to MPI.
  void issueKernel(const clang::CUDAKernelCallExpr *Launch, Disjunct &D,
                   std::vector<TransferHazard> *Hazards) const;

  /// A launch being issued: the kernel and its stream.
  struct KernelIssue {
    const clang::CUDAKernelCallExpr *Launch;
    const clang::FunctionDecl *Kernel;
    const clang::Expr *StreamArg;
    StreamRef Stream;
  };

  /// The memory \p Pointer points to, given to the kernel as its parameter
  /// \p Index (\p Arg) or as the member \p Path of it.
  void issueKernelMemory(const KernelIssue &Issue, unsigned Index,
                         const MemberPath &Path, const clang::Expr *Pointer,
                         const clang::Expr *Arg, Disjunct &D,
                         std::vector<TransferHazard> *Hazards) const;

  /// The pointer 'arg.path' (or 'arg->path' for \p Arrow), made once.
  const clang::Expr *memberPointer(const clang::Expr *Arg, bool Arrow,
                                   MemberPath Path) const;

  /// The device memory an async copy reads or writes: for the races of
  /// streams with each other.
  void issueDeviceSides(const clang::CallExpr *Call, const ApiSpec &Api,
                        const clang::Expr *StreamArg, const StreamRef &Stream,
                        Disjunct &D,
                        std::vector<TransferHazard> *Hazards) const;

  /// A call of a member function: its first accesses to the object's
  /// buffer members, against the transfers in flight on them. Returns its
  /// effects (and sets \p Object) where they are known; a member function
  /// that is not known may synchronize anything of its object: its
  /// transfers, and those on stream members, are forgotten.
  const MemberEffects *memberCall(const clang::CXXMemberCallExpr *Call,
                                  Disjunct &D,
                                  std::vector<TransferHazard> *Hazards,
                                  const clang::Decl *&Object) const;

  static void forgetMember(Disjunct &D, const clang::ValueDecl *Member,
                           const clang::Decl *Object);

  /// A call of a function of this translation unit: what it left in flight
  /// on the memory its pointer parameters point to is now in flight on the
  /// caller's arguments, on the stream the caller passed.
  void issueParameterTransfers(const clang::CallExpr *Call, Disjunct &D) const;

  /// What the callee left in flight on the object's buffer members.
  void issueMemberTransfers(const clang::CXXMemberCallExpr *Call,
                            const MemberEffects &Effects,
                            const clang::Decl *Object, Disjunct &D) const;

  /// An object given to a call (other than as the object of a member
  /// function whose effects are known) may have its transfers synchronized
  /// there.
  void forgetObjectsGiven(const clang::CallExpr *Call, Disjunct &D) const;

  const clang::FunctionDecl *Function;
  clang::ASTContext &Ctx;
  ProvenanceAnalysis &Provenances;
  const FunctionProvenance &Provenance;
  SyncSummaries &Syncs;
  const HostAccessFinder &Accesses;
  TransferSet Seed;
  std::set<const clang::VarDecl *> LoopCounters;
  std::set<const clang::ValueDecl *> NonBlocking;
  CallResults Results;
  BranchFacts Branches;
  DeviceWaitLoops WaitLoops;
  /// Compiled with --default-stream per-thread: 0 is the per-thread stream.
  bool PerThread;
  /// Which device memory the function's work is followed on
  /// (deviceMemoryScope).
  DeviceMemoryScope Scope;
  /// The member pointers made for launches' struct arguments.
  mutable std::map<std::pair<const clang::Expr *, MemberPath>,
                   const clang::Expr *>
      MemberPointers;

public:
  /// Async copies of pageable memory (staged and synchronous) are taken as
  /// in flight, as they would be were the memory pinned: what relies on
  /// their being synchronous (findHazardsIfPinned).
  bool PageableAsPinned = false;
};

/// Whether \p Arg names a buffer whole ('d', 'd_u1[i]', 'p->buf'; not
/// 'd + off' nor '&d[i]').
bool namesWholeBuffer(const clang::Expr *Arg);

/// A kernel given \p Arg (\p Buffer), which it writes or reads, while a
/// nonblocking MPI call's request still covers the whole buffer, and one of
/// them writes it: a race (MpiRequests.cpp).
void raceWithRequests(const clang::CUDAKernelCallExpr *Launch,
                      const clang::Expr *Arg, const BufferRef &Buffer,
                      bool Writes, Disjunct &D,
                      std::vector<TransferHazard> *Hazards);

/// Whether \p S calls a GPU library function that enqueues work on a stream
/// (cufftExecR2C, cublasSgemm): what it is given it touches on the device,
/// in stream order, not on the host.
bool isLibraryWork(const clang::Stmt *S);

} // namespace cuda_async_lint::pending

#endif // CUDA_ASYNC_LINT_ANALYSIS_PENDING_TRANSFERDATAFLOW_H
