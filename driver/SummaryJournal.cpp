//===- SummaryJournal.cpp -------------------------------------------------===//

#include "SummaryJournal.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Signals.h"
#include <unistd.h>

namespace cuda_async_lint {

std::unique_ptr<SummaryJournal> SummaryJournal::create() {
  int FD = -1;
  llvm::SmallString<128> Path;
  if (llvm::sys::fs::createTemporaryFile("cuda-async-lint-summaries", "jsonl",
                                         FD, Path))
    return nullptr;
  llvm::sys::RemoveFileOnSignal(Path);
  return std::unique_ptr<SummaryJournal>(
      new SummaryJournal(std::string(Path), FD));
}

SummaryJournal::~SummaryJournal() {
  ::close(FD);
  llvm::sys::fs::remove(Path);
  llvm::sys::DontRemoveFileOnSignal(Path);
}

void SummaryJournal::append(const llvm::json::Object &Unit) {
  std::string Line =
      llvm::formatv("{0}\n", llvm::json::Value(llvm::json::Object(Unit)));
  // The parent alone writes; a worker never reads past a newline it has not
  // seen, so a short write only delays what the next workers see.
  llvm::StringRef Rest = Line;
  while (!Rest.empty()) {
    ssize_t N = ::write(FD, Rest.data(), Rest.size());
    if (N <= 0) {
      if (N < 0 && errno == EINTR)
        continue;
      break;
    }
    Rest = Rest.drop_front(N);
    Written += N;
  }
}

void SummaryJournal::readNew(ProgramSummaries &Known) const {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false,
                                  /*IsVolatile=*/true);
  if (!Buffer || (*Buffer)->getBufferSize() < Written)
    return;
  llvm::StringRef New = (*Buffer)->getBuffer().drop_front(Written);
  // A line without its newline is one the parent is still writing.
  while (New.contains('\n')) {
    auto [Line, Rest] = New.split('\n');
    if (llvm::Expected<llvm::json::Value> V = llvm::json::parse(Line)) {
      if (llvm::json::Object *Unit = V->getAsObject())
        llvm::consumeError(Known.add(std::move(*Unit)));
    } else {
      llvm::consumeError(V.takeError());
    }
    New = Rest;
  }
}

} // namespace cuda_async_lint
