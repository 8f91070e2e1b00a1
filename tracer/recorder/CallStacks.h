//===- CallStacks.h - The return addresses above a traced call --*- C++ -*-===//
//
// Each traced call keeps the stack it was made from, as raw return
// addresses, each distinct stack once. Which frame is the user's call site
// is decided later, when the trace is symbolized: here, in the traced
// program, nothing is looked up, so the cost per call is one unwind.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_CALLSTACKS_H
#define CUDA_ASYNC_TRACE_RECORDER_CALLSTACKS_H

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace cuda_async_trace {

using Stack = std::vector<std::uintptr_t>;

/// A loaded ELF object, as the dynamic linker placed it.
struct LoadedModule {
  std::string Path;
  /// The load bias: an address minus Base is the address in the file's own
  /// numbering (what a symbolizer takes).
  std::uintptr_t Base = 0;
  std::string BuildId;
  /// The address ranges of its loaded segments.
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> Ranges;
};

/// The return addresses of the calling thread, innermost first, at most
/// \p MaxFrames, the first \p Skip left out.
Stack captureStack(unsigned Skip, unsigned MaxFrames = 48);

/// Every object loaded in this process now (the executable first).
std::vector<LoadedModule> loadedModules();

/// Each distinct stack once, numbered in order of first capture.
class StackTable {
public:
  std::uint32_t intern(Stack S);
  std::vector<Stack> stacks() const;

private:
  mutable std::mutex Lock;
  std::map<Stack, std::uint32_t> Ids;
  std::vector<const Stack *> Order;
};

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_CALLSTACKS_H
