//===- DeviceWaitLoops.h - Loops that wait for every device -----*- C++ -*-===//
//
// A wait loop over devices, 'for (i...) { cudaSetDevice(i);
// cudaDeviceSynchronize(); }', synchronizes every device the program issued
// on: each is made current and waited for in turn. A must-analysis sees one
// path that skips it, the loop run zero times, and keeps every copy in
// flight past it. A program with zero devices issued nothing, so a loop
// whose every iteration synchronizes the device is taken to run at least
// once: its exit ends what a device sync ends.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SYNC_DEVICEWAITLOOPS_H
#define CUDA_ASYNC_LINT_ANALYSIS_SYNC_DEVICEWAITLOOPS_H

#include "SyncDataflow.h"
#include "llvm/ADT/DenseMap.h"

namespace clang {
class CFGBlock;
class SourceManager;
class Stmt;
} // namespace clang

namespace cuda_async_lint {

/// Whether \p Loop (a for, while or range-based for loop) synchronizes the
/// device in every iteration that goes on to its condition: its body
/// reaches a device sync (a CUDA call, or a call \p CallSyncsOf says
/// synchronizes the device) on every path before a continue or a goto
/// into the loop. A break, return, throw or goto out of the loop (an error
/// check's 'goto Error') takes another edge, with its own state.
bool waitsForTheDeviceEveryIteration(const clang::Stmt *Loop,
                                     const clang::SourceManager &SM,
                                     CallSyncsQuery CallSyncsOf);

/// The device wait loops of one function, found once each: the dataflows
/// cross a loop's exit edge on every pass.
class DeviceWaitLoops {
public:
  explicit DeviceWaitLoops(const clang::SourceManager &SM) : SM(SM) {}

  /// Whether the edge \p SuccIndex of \p From leaves a device wait loop:
  /// the false edge of its condition.
  bool leaves(const clang::CFGBlock &From, unsigned SuccIndex,
              CallSyncsQuery CallSyncsOf) const;

private:
  const clang::SourceManager &SM;
  mutable llvm::DenseMap<const clang::Stmt *, bool> Known;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SYNC_DEVICEWAITLOOPS_H
