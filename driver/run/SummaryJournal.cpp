//===- SummaryJournal.cpp -------------------------------------------------===//

#include "SummaryJournal.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

namespace cuda_async_lint {

std::unique_ptr<SummaryJournal> SummaryJournal::create() {
  int FD = -1;
  llvm::SmallString<128> Path;
  if (llvm::sys::fs::createTemporaryFile("cuda-async-lint-summaries", "jsonl",
                                         FD, Path))
    return nullptr;
  // Workers read it through the descriptor they inherit: with no name, it
  // is gone when the run ends, however it ends.
  llvm::sys::fs::remove(Path);
  return std::unique_ptr<SummaryJournal>(new SummaryJournal(FD));
}

SummaryJournal::~SummaryJournal() { ::close(FD); }

void SummaryJournal::append(size_t Index, const llvm::json::Object &Unit) {
  std::string Line = llvm::formatv(
      "{0}\n",
      llvm::json::Value(llvm::json::Array{Index, llvm::json::Object(Unit)}));
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

void SummaryJournal::read(
    uint64_t From,
    llvm::function_ref<void(size_t, llvm::json::Object)> Each) const {
  struct stat Status;
  if (::fstat(FD, &Status) != 0 || uint64_t(Status.st_size) <= From)
    return;
  std::string Bytes(Status.st_size - From, '\0');
  size_t Read = 0;
  while (Read < Bytes.size()) {
    llvm::Expected<size_t> N = llvm::sys::fs::readNativeFileSlice(
        llvm::sys::fs::convertFDToNativeFile(FD),
        llvm::MutableArrayRef<char>(Bytes.data() + Read, Bytes.size() - Read),
        From + Read);
    if (!N)
      llvm::consumeError(N.takeError());
    if (!N || *N == 0)
      break;
    Read += *N;
  }
  llvm::StringRef New(Bytes.data(), Read);
  // A line without its newline is one the parent is still writing.
  while (New.contains('\n')) {
    auto [Line, Rest] = New.split('\n');
    if (llvm::Expected<llvm::json::Value> V = llvm::json::parse(Line)) {
      llvm::json::Array *Entry = V->getAsArray();
      std::optional<int64_t> Index = Entry && Entry->size() == 2
                                         ? (*Entry)[0].getAsInteger()
                                         : std::nullopt;
      if (Index && *Index >= 0)
        if (llvm::json::Object *Unit = (*Entry)[1].getAsObject())
          Each(size_t(*Index), std::move(*Unit));
    } else {
      llvm::consumeError(V.takeError());
    }
    New = Rest;
  }
}

void SummaryJournal::readNew(ProgramSummaries &Known) const {
  read(Written, [&](size_t, llvm::json::Object Unit) {
    llvm::consumeError(Known.add(std::move(Unit)));
  });
}

void SummaryJournal::readAll(
    llvm::function_ref<void(size_t, llvm::json::Object)> Each) const {
  read(0, Each);
}

uint64_t SummaryJournal::size() const {
  struct stat Status;
  return ::fstat(FD, &Status) == 0 ? uint64_t(Status.st_size) : 0;
}

} // namespace cuda_async_lint
