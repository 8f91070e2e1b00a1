//===- CallSiteSymbolizer.h - From return addresses to a line ---*- C++ -*-===//
//
// Finds, in a traced call's stack, the line of the program that made the
// call: the innermost frame, inlined frames included, with a line in code
// that is neither the CUDA runtime's, CUPTI's, the tracer's, the C or C++
// runtime's, nor a CUDA or system header's (the cudaMallocHost<T> template,
// the launch stub nvcc generates), nor the kernel's host function that a
// <<<...>>> launch goes through (its line is the kernel's declaration).
// LLVM's symbolizer reads the DWARF of the program as built with -g or
// -lineinfo.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_MODEL_CALLSITESYMBOLIZER_H
#define CUDA_ASYNC_TRACE_MODEL_CALLSITESYMBOLIZER_H

#include "Trace.h"

#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cuda_async_trace {

/// An object loaded in the traced process, as the raw trace records it.
struct RawModule {
  std::string Path;
  std::uint64_t Base = 0;
  std::string BuildId;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> Ranges;
};

/// What the search for the call site found.
struct CallSite {
  SourceLocation Location;
  /// A release function passed over on the way (free, operator delete[],
  /// cudaFreeHost), innermost first: the crash happened inside it.
  std::string ReleasedIn;
};

class CallSiteSymbolizer {
public:
  /// \p SymbolDirs: where to look for a module whose recorded path is gone
  /// or holds another build (the program was built elsewhere).
  explicit CallSiteSymbolizer(std::vector<std::string> SymbolDirs);

  /// The call site of \p Stack (return addresses, innermost first) in a
  /// process with \p Modules loaded. \p Names: the nearest exported symbol
  /// of each frame, where the tracer recorded them (crash stacks).
  CallSite callSite(const std::vector<RawModule> &Modules,
                    const std::vector<std::uint64_t> &Stack,
                    const std::vector<std::string> &Names = {});

  /// Modules of the program's own code that had frames but could not be
  /// read (moved, rebuilt, no such file), each once.
  const std::set<std::string> &unreadableModules() const { return Unreadable; }

private:
  /// The local file that holds \p M's code, if any.
  std::optional<std::string> localFile(const RawModule &M);

  llvm::symbolize::LLVMSymbolizer Symbolizer;
  std::vector<std::string> SymbolDirs;
  std::map<std::string, std::optional<std::string>> Files;
  std::set<std::string> Unreadable;
};

/// Whether frames in the module at \p Path are never the user's call site:
/// the CUDA driver, runtime and CUPTI, the tracer, the C and C++ runtimes,
/// the dynamic linker.
bool isRuntimeModule(llvm::StringRef Path);

/// Whether a line in \p File is a header's, not the program's own: the CUDA
/// toolkit's headers and generated stubs, the system's headers.
bool isLibraryFile(llvm::StringRef File);

/// The kernel whose launch stub nvcc named \p Function
/// ("__device_stub__Z3sumPfi(float*, int)" -> "sum"), or "".
std::string kernelOfStub(llvm::StringRef Function);

/// \p Function's qualified name without parameters, template arguments or
/// return type: "void ns::scale<float>(float*, float)" -> "ns::scale".
std::string baseName(llvm::StringRef Function);

/// The release function \p Symbol names (free, operator delete, ...), or "".
std::string releaseFunction(llvm::StringRef Symbol);

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_MODEL_CALLSITESYMBOLIZER_H
