//===- HipccFlags.h - hipcc command lines as clang command lines -*- C++
//-*-===//
//
// hipcc, ROCm's compiler driver, runs clang++ with a few flags of its own and
// names the language itself: it compiles .cpp, .cxx, .cc, .C, .cu, .cuh and
// .hip files as HIP (-x hip; HIP_COMPILE_CXX_AS_HIP=1, its default) and .c
// files as C. A compilation database written for hipcc (CMake with
// CMAKE_CXX_COMPILER=hipcc, Bear over a Makefile) reads as clang's once that
// is spelled out and hipcc's own flags are dropped.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_HIPCCFLAGS_H
#define CUDA_ASYNC_LINT_DRIVER_HIPCCFLAGS_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace cuda_async_lint {

/// True if \p Compiler (argv[0] of a compile command) is hipcc (hipcc.pl,
/// hipcc.bin).
bool isHipcc(llvm::StringRef Compiler);

/// Translates hipcc's command line \p Args (argv[0] included) for \p File to
/// a clang++ command line.
std::vector<std::string>
translateHipccCommand(const std::vector<std::string> &Args,
                      llvm::StringRef File);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_HIPCCFLAGS_H
