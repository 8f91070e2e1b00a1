//===- PendingTransfers.h - Async transfers in flight -----------*- C++ -*-===//
//
// A forward dataflow over clang's CFG, to a fixpoint, of the async copies
// that may still be in flight at each point, with the host buffer and the
// stream each one uses. Syncs remove them: stream, device and context syncs,
// event syncs on an event recorded after the copy on its stream, polling
// loops on cudaStreamQuery/cudaEventQuery, blocking copies and memsets (but
// not for streams created non-blocking), and calls of functions of the
// translation unit that always synchronize. A host access that conflicts
// with a pending transfer is a hazard; the first on each path is recorded.
//
// The state is a small set of disjuncts, one per assumption about loop
// counters (0 at the start, only ever incremented): 'if (i > 0)' in a loop
// body is true on every path through the back edge, so the first
// iteration's branch sees only what came from before the loop.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PENDING_PENDINGTRANSFERS_H
#define CUDA_ASYNC_LINT_ANALYSIS_PENDING_PENDINGTRANSFERS_H

#include "HostAccess.h"
#include "analysis/dataflow/FlatSet.h"
#include "analysis/provenance/ProvenanceAnalysis.h"
#include "analysis/sync/SyncSummary.h"
#include "api/StreamRef.h"
#include <map>
#include <memory>
#include <set>
#include <vector>

namespace cuda_async_lint {

/// An async operation that may still touch a host buffer: a copy, or a
/// kernel given memory the host can reach (KernelWrites.h).
struct PendingTransfer {
  const clang::CallExpr *Op;
  BufferRef Buffer;
  StreamRef Stream;
  /// The stream argument as written (null if omitted).
  const clang::Expr *StreamArg;
  /// The device writes the host buffer (a device-to-host destination): any
  /// host access conflicts. Otherwise it reads it: host writes conflict.
  bool DeviceWrites;
  /// The host pointer argument as written (null for a member function's
  /// stand-ins). Not part of the identity.
  const clang::Expr *HostArg = nullptr;
  /// A kernel's work on device memory: host code cannot touch it, but a
  /// CUDA-aware MPI call given it does (HostCommunication.h). Not part of
  /// the identity.
  bool DeviceMemory = false;
  /// A kernel's work on what a pointer parameter of unknown memory points
  /// to: nothing here races with it; a caller that passes memory the host
  /// can reach has it in flight (issueParameterTransfers). Not part of the
  /// identity.
  bool CallerDecides = false;
  /// A nonblocking MPI call's buffer (MpiRequests.cpp): in flight on its
  /// request (Stream names the request variable), not on a stream. Not part
  /// of the identity.
  bool Request = false;

  bool operator<(const PendingTransfer &O) const {
    return std::tie(Op, Buffer, DeviceWrites) <
           std::tie(O.Op, O.Buffer, O.DeviceWrites);
  }
  bool operator==(const PendingTransfer &O) const {
    return Op == O.Op && Buffer == O.Buffer && DeviceWrites == O.DeviceWrites;
  }
};

/// Transfers in flight, in order (FlatSet.h: a state's sets are copied at
/// every block and edge, and shared until changed).
using TransferSet = FlatSet<PendingTransfer>;

/// The most transfers of one buffer, stream and direction a set keeps: a
/// dispatch chain of N branches each copying into the buffer would
/// otherwise carry N transfers through every later state. Past it, a newly
/// issued or joined one is not kept: a hazard with it is one with those
/// kept (the stream runs them in order; a finding may then name another of
/// them), unless an event covered those alone (a race then goes unseen;
/// nothing false is said).
constexpr size_t MaxPendingPerBuffer = 8;

/// Adds \p P to \p Set, keeping MaxPendingPerBuffer transfers of its
/// buffer, stream and direction at most.
void addPending(TransferSet &Set, PendingTransfer P);

/// Whether an access of \p Touched (all of its buffer where \p Whole: a
/// release, the end of a lifetime) touches what \p InFlight is in flight
/// on: the same buffer and, short of all of it, a slice that may be the one
/// in flight (not another slot of a ring, nor 'h + i * n' of an earlier 'i').
bool touchesInFlight(const BufferRef &Touched, bool Whole,
                     const BufferRef &InFlight);

/// A host access that may run while a transfer is in flight.
struct TransferHazard {
  HostAccess Access;
  PendingTransfer Transfer;
};

struct MemberEffects;
struct ParameterTransfer;

/// What the functions of one translation unit do for their callers, on
/// demand: SyncSummaries, and the MemberEffects of member functions.
class SyncSummaries {
public:
  /// Draws on the program's summaries installed now, if any.
  explicit SyncSummaries(clang::ASTContext &Ctx);
  ~SyncSummaries();
  /// The summaries every check of the translation unit of \p Ctx shares
  /// (UnitShared.h).
  static std::shared_ptr<SyncSummaries>
  forTranslationUnit(clang::ASTContext &Ctx);
  /// Null for functions without a body here (unless another unit of the
  /// program summarized it), and during recursion.
  const SyncSummary *summary(const clang::FunctionDecl *FD);
  /// What a call of \p FD (not a CUDA call) synchronizes for its caller
  /// (SyncSummary.h); \p Summary is set to \p FD's summary, whose stream and
  /// event members a call on the same object synchronizes. For a function
  /// of another unit, the answer is noted (summaries/ProgramQueries.h).
  CallSyncs callSyncs(const clang::CallExpr *Call,
                      const clang::FunctionDecl *FD,
                      const SyncSummary *&Summary);
  /// callSyncs as the sync dataflows ask it (CallSyncsQuery).
  auto callSyncsQuery() {
    return [this](const clang::CallExpr *Call, const clang::FunctionDecl *FD,
                  const SyncSummary *&Summary) {
      return callSyncs(Call, FD, Summary);
    };
  }
  /// Null for member functions without a body here, virtual ones, and
  /// during recursion.
  const MemberEffects *effects(const clang::CXXMethodDecl *MD,
                               ProvenanceAnalysis &Provenance);
  /// The transfers \p FD (a function with a body here, not a CUDA call)
  /// leaves in flight on the memory its pointer parameters point to;
  /// empty during recursion.
  const std::vector<ParameterTransfer> &
  parameterTransfers(const clang::FunctionDecl *FD,
                     ProvenanceAnalysis &Provenance);
  clang::ASTContext &context() const { return Ctx; }

private:
  clang::ASTContext &Ctx;
  std::map<const clang::FunctionDecl *, SyncSummary> Done;
  std::set<const clang::FunctionDecl *> InProgress;
  std::map<const clang::FunctionDecl *, std::unique_ptr<MemberEffects>> Effects;
  std::set<const clang::FunctionDecl *> EffectsInProgress;
  std::map<const clang::FunctionDecl *, std::vector<ParameterTransfer>>
      ParameterEffects;
  ProgramView Program;
};

/// The hazards of one function: each host access that may conflict with a
/// transfer still in flight, the first on each path.
std::vector<TransferHazard> findTransferHazards(const clang::FunctionDecl *FD,
                                                clang::ASTContext &Ctx,
                                                ProvenanceAnalysis &Provenance,
                                                SyncSummaries &Syncs);

/// The hazards of \p FD were its async copies of pageable memory in flight,
/// as pinning that memory would make them: each host access that relies on
/// such a copy being staged and synchronous (a read of a D2H copy's
/// destination, a write of an H2D copy's source, before any wait). With the
/// hazards of pinned memory too; a caller picks those of its copy.
std::vector<TransferHazard> findHazardsIfPinned(const clang::FunctionDecl *FD,
                                                clang::ASTContext &Ctx,
                                                ProvenanceAnalysis &Provenance,
                                                SyncSummaries &Syncs);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PENDING_PENDINGTRANSFERS_H
