//===- Progress.cpp -------------------------------------------------------===//

#include "Progress.h"
#include "llvm/Support/Process.h"

namespace cuda_async_lint {

Progress::Progress(size_t Total, llvm::raw_ostream &OS, bool Shown,
                   llvm::StringRef What)
    : Total(Total), What(What.empty() ? "" : What.str() + " "), OS(OS),
      Shown(Shown && Total > 1) {}

bool Progress::wanted() {
  return llvm::sys::Process::StandardOutIsDisplayed() &&
         llvm::sys::Process::StandardErrIsDisplayed();
}

void Progress::fileEnded(llvm::StringRef File, size_t Ended) {
  if (!Shown)
    return;
  OS << "[" << Ended << "/" << Total << "] " << What << File << "\n";
  OS.flush();
}

} // namespace cuda_async_lint
