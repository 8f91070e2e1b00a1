//===- SummaryJournal.cpp -------------------------------------------------===//

#include "SummaryJournal.h"
#include "support/UnnamedFiles.h"
#include "llvm/Support/FormatVariadic.h"
#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

namespace cuda_async_lint {

std::unique_ptr<SummaryJournal> SummaryJournal::create() {
  // Workers read it through the descriptor they inherit.
  llvm::Expected<int> FD =
      createUnnamedFile("cuda-async-lint-summaries", "jsonl");
  if (!FD) {
    llvm::consumeError(FD.takeError());
    return nullptr;
  }
  return std::unique_ptr<SummaryJournal>(new SummaryJournal(*FD));
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
  std::string Bytes;
  Bytes.reserve(Status.st_size - From);
  // What a failed read left is read as far as it went.
  llvm::consumeError(readFileSlices(FD, From, Status.st_size - From,
                                    [&](llvm::StringRef Chunk) {
                                      Bytes.append(Chunk.data(), Chunk.size());
                                    }));
  llvm::StringRef New = Bytes;
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
