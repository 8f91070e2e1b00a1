//===- Progress.cpp -------------------------------------------------------===//

#include "Progress.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"

namespace cuda_async_lint {

Progress::Progress(size_t Total, llvm::raw_ostream &OS, bool Shown,
                   llvm::StringRef What,
                   std::optional<std::chrono::duration<double>> Every,
                   std::optional<std::chrono::steady_clock::time_point> Started)
    : Total(Total), What(What.empty() ? "" : What.str() + " "), OS(OS),
      Shown(Shown && Total > 1), Every(Total > 1 ? Every : std::nullopt),
      Started(Started.value_or(std::chrono::steady_clock::now())),
      Last(std::chrono::steady_clock::now()) {}

bool Progress::wanted() {
  return llvm::sys::Process::StandardOutIsDisplayed() &&
         llvm::sys::Process::StandardErrIsDisplayed();
}

void Progress::fileEnded(llvm::StringRef File, size_t Ended) {
  if (Shown) {
    OS << "[" << Ended << "/" << Total << "] " << What << File << "\n";
    OS.flush();
    return;
  }
  if (!Every || Ended == Total)
    return; // The run's summary says the rest.
  auto Now = std::chrono::steady_clock::now();
  if (Now - Last < *Every)
    return;
  Last = Now;
  OS << llvm::formatv("cuda-async-lint: {0} of {1} files {2}, {3:f0} s\n",
                      Ended, Total,
                      What.empty() ? "done" : llvm::StringRef(What).rtrim(),
                      std::chrono::duration<double>(Now - Started).count());
  OS.flush();
}

} // namespace cuda_async_lint
