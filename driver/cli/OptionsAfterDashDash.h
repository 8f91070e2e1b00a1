//===- OptionsAfterDashDash.h - Our options given to the compiler -*- C++
//-*-===//
//
// Everything after '--' is the compile command: one of this tool's own
// options there ('--format=json', '-o report.sarif') silently goes to the
// compiler, and the run gives a text report and no file. Each is named in a
// warning, as clang-tidy warns of its own flags there; a compile command's
// own flags ('-o file.o', '-p' for profiling) are not.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CLI_OPTIONSAFTERDASHDASH_H
#define CUDA_ASYNC_LINT_DRIVER_CLI_OPTIONSAFTERDASHDASH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"
#include <string>

namespace cuda_async_lint {

/// Warns, on standard error, of each of \p Args (those after '--') that is
/// an option of category \p Ours.
void warnOwnOptionsAfterDashDash(llvm::ArrayRef<std::string> Args,
                                 const llvm::cl::OptionCategory &Ours);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CLI_OPTIONSAFTERDASHDASH_H
