//===- FileResult.cpp -----------------------------------------------------===//

#include "FileResult.h"
#include "llvm/Support/Endian.h"

namespace cuda_async_lint {

namespace {

/// Bumped whenever a field changes; parent and worker are one executable,
/// so a mismatch means the bytes are not ours.
constexpr uint32_t FormatVersion = 10;

// One list of fields per type (defined below the reader and writer), read
// and written by the same function.
template <class IO> void fields(IO &io, FileLocation &L);
template <class IO> void fields(IO &io, ResolvedNote &N);
template <class IO> void fields(IO &io, ResolvedFix &F);
template <class IO> void fields(IO &io, std::pair<unsigned, unsigned> &P);
template <class IO>
void fields(IO &io, std::tuple<unsigned, unsigned, std::string> &T);
template <class IO> void fields(IO &io, RenderedMessage &M);
template <class IO> void fields(IO &io, ResolvedFinding &F);
template <class IO> void fields(IO &io, FailedFile &F);
template <class IO> void fields(IO &io, std::string &S);

/// Appends each field to a byte string.
class Writer {
public:
  std::string Bytes;

  void operator()(const uint64_t &V) {
    char Buf[8];
    llvm::support::endian::write64le(Buf, V);
    Bytes.append(Buf, sizeof(Buf));
  }
  void operator()(const unsigned &V) { (*this)(uint64_t(V)); }
  void operator()(const bool &V) { (*this)(uint64_t(V)); }
  void operator()(const std::string &S) {
    (*this)(uint64_t(S.size()));
    Bytes += S;
  }
  template <class T> void operator()(const std::vector<T> &V) {
    (*this)(uint64_t(V.size()));
    for (const T &E : V)
      fields(*this, const_cast<T &>(E));
  }
  template <class T> void operator()(const std::optional<T> &O) {
    (*this)(O.has_value());
    if (O)
      fields(*this, const_cast<T &>(*O));
  }
};

/// Reads each field back; any short or oversized read fails the whole
/// decode.
class Reader {
public:
  explicit Reader(llvm::StringRef Bytes) : Rest(Bytes) {}
  bool Failed = false;
  bool atEnd() const { return Rest.empty(); }

  void operator()(uint64_t &V) {
    if (Rest.size() < 8) {
      Failed = true;
      return;
    }
    V = llvm::support::endian::read64le(Rest.data());
    Rest = Rest.drop_front(8);
  }
  void operator()(unsigned &V) {
    uint64_t Wide = 0;
    (*this)(Wide);
    Failed |= Wide > UINT32_MAX;
    V = unsigned(Wide);
  }
  void operator()(bool &V) {
    uint64_t Wide = 0;
    (*this)(Wide);
    Failed |= Wide > 1;
    V = Wide != 0;
  }
  void operator()(std::string &S) {
    uint64_t Size = 0;
    (*this)(Size);
    if (Failed || Size > Rest.size()) {
      Failed = true;
      return;
    }
    S = Rest.take_front(Size).str();
    Rest = Rest.drop_front(Size);
  }
  template <class T> void operator()(std::vector<T> &V) {
    uint64_t Size = 0;
    (*this)(Size);
    // Every element takes at least one byte: a larger count is damage.
    if (Failed || Size > Rest.size()) {
      Failed = true;
      return;
    }
    V.resize(Size);
    for (T &E : V) {
      fields(*this, E);
      if (Failed)
        return;
    }
  }
  template <class T> void operator()(std::optional<T> &O) {
    bool Present = false;
    (*this)(Present);
    if (Failed || !Present)
      return;
    O.emplace();
    fields(*this, *O);
  }

private:
  llvm::StringRef Rest;
};

template <class IO> void fields(IO &io, FileLocation &L) {
  io(L.File), io(L.Line), io(L.Column), io(L.Offset);
}
template <class IO> void fields(IO &io, ResolvedNote &N) {
  fields(io, N.Loc), io(N.Message);
}
template <class IO> void fields(IO &io, ResolvedFix &F) {
  fields(io, F.Begin), fields(io, F.End), io(F.Replacement),
      io(F.ParsedContentHash);
}
template <class IO> void fields(IO &io, std::pair<unsigned, unsigned> &P) {
  io(P.first), io(P.second);
}
template <class IO>
void fields(IO &io, std::pair<std::string, std::string> &P) {
  io(P.first), io(P.second);
}
template <class IO> void fields(IO &io, std::pair<std::string, unsigned> &P) {
  io(P.first), io(P.second);
}
template <class IO>
void fields(IO &io, std::tuple<unsigned, unsigned, std::string> &T) {
  io(std::get<0>(T)), io(std::get<1>(T)), io(std::get<2>(T));
}
template <class IO> void fields(IO &io, RenderedMessage &M) {
  io(M.IsNote), io(M.File), io(M.Offset), io(M.Message), io(M.Ranges),
      io(M.Fixes);
}
template <class IO> void fields(IO &io, ResolvedFinding &F) {
  io(F.CheckId), fields(io, F.Loc), io(F.Message), io(F.Notes), io(F.Fixes),
      io(F.Messages), io(F.PointedCode), io(F.LineText), io(F.BuildDirectory),
      io(F.IsError), io(F.FailsGate);
}
template <class IO> void fields(IO &io, FailedFile &F) {
  io(F.File), io(F.Errors), io(F.Reason), io(F.Diagnostics);
}
template <class IO> void fields(IO &io, std::string &S) { io(S); }
template <class IO> void fields(IO &io, FileResult &R) {
  io(R.File), io(R.Findings), io(R.Failure), io(R.ToleratedErrors),
      io(R.ConfigurationWarnings), io(R.Summary), io(R.SummaryInputs),
      io(R.Queries), io(R.Inputs), io(R.ParseMicroseconds),
      io(R.AnalysisMicroseconds), io(R.Suppressed),
      io(R.UninstantiatedTemplates);
}

} // namespace

std::string encodeFileResult(const FileResult &R) {
  Writer W;
  W(uint64_t(FormatVersion));
  // The writer only reads what fields() hands it.
  fields(W, const_cast<FileResult &>(R));
  return std::move(W.Bytes);
}

llvm::Expected<FileResult> decodeFileResult(llvm::StringRef Bytes) {
  Reader In(Bytes);
  uint64_t Version = 0;
  In(Version);
  FileResult R;
  if (!In.Failed && Version == FormatVersion)
    fields(In, R);
  if (In.Failed || Version != FormatVersion || !In.atEnd())
    return llvm::createStringError(
        "the worker's result is incomplete or damaged (%zu bytes)",
        Bytes.size());
  return R;
}

} // namespace cuda_async_lint
