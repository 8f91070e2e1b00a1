//===- HeaderIncluders.cpp ------------------------------------------------===//

#include "HeaderIncluders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <optional>
#include <set>

using namespace llvm;

namespace cuda_async_lint {

namespace {

/// The names '#include "x"' and '#include <x>' lines of \p Text give.
std::vector<StringRef> includedNames(StringRef Text) {
  std::vector<StringRef> Names;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("include"))
      continue;
    Line = Line.ltrim(" \t");
    char Close = Line.starts_with("<") ? '>' : Line.starts_with("\"") ? '"' : 0;
    if (!Close)
      continue;
    size_t End = Line.find(Close, 1);
    if (End != StringRef::npos)
      Names.push_back(Line.slice(1, End));
  }
  return Names;
}

std::string normalized(StringRef Path) {
  SmallString<256> P(Path);
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  sys::path::native(P);
  return std::string(P);
}

/// The -I, -isystem and -iquote directories of \p Command, absolute.
std::vector<std::string>
searchDirs(const clang::tooling::CompileCommand &Command) {
  std::vector<std::string> Dirs;
  const std::vector<std::string> &Args = Command.CommandLine;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I], Dir;
    for (StringRef Flag : {"-I", "-isystem", "-iquote"})
      if (A == Flag && I + 1 < Args.size())
        Dir = Args[++I];
      else if (A.starts_with(Flag) && A.size() > Flag.size() && Dir.empty())
        Dir = A.drop_front(Flag.size());
    if (Dir.empty())
      continue;
    SmallString<256> Abs(Dir);
    if (sys::path::is_relative(Abs)) {
      Abs = Command.Directory;
      sys::path::append(Abs, Dir);
    }
    Dirs.push_back(normalized(Abs));
  }
  return Dirs;
}

} // namespace

bool isHeaderFile(StringRef Path) {
  return StringSwitch<bool>(sys::path::extension(Path))
      .Cases({".h", ".hh", ".hpp", ".hxx", ".h++", ".H", ".cuh", ".inl", ".ipp",
              ".tcc"},
             true)
      .Default(false);
}

bool includes(StringRef Text, StringRef Includer, StringRef Header,
              function_ref<std::vector<std::string>()> SearchDirs) {
  std::string Target = normalized(Header);
  StringRef Name = sys::path::filename(Header);
  std::optional<std::vector<std::string>> Dirs;
  for (StringRef Included : includedNames(Text)) {
    if (sys::path::filename(Included) != Name)
      continue;
    bool Resolved = false;
    if (!Dirs) {
      Dirs = SearchDirs();
      Dirs->insert(Dirs->begin(),
                   std::string(sys::path::parent_path(Includer)));
    }
    for (const std::string &Dir : *Dirs) {
      SmallString<256> Candidate(Dir);
      sys::path::append(Candidate, Included);
      if (!sys::fs::exists(Candidate))
        continue;
      Resolved = true;
      if (normalized(Candidate) == Target)
        return true;
    }
    // Not found where this command looks (a generated -I, another build):
    // the path's trailing components decide.
    if (!Resolved && StringRef(Target).ends_with(normalized(Included)))
      return true;
  }
  return false;
}

std::optional<std::string> HeaderIncluders::find(
    StringRef Header,
    const std::vector<std::pair<std::string, std::string>> &Open,
    const LintCompilationDatabase *Database) {
  // A file's -I directories, asked of its command only where one of its
  // lines names the header's file name.
  auto SearchDirsOf = [&](StringRef File) {
    return [Database, File]() -> std::vector<std::string> {
      if (!Database)
        return {};
      auto Commands = Database->commandsFor(File);
      if (!Commands) {
        consumeError(Commands.takeError());
        return {};
      }
      return Commands->empty() ? std::vector<std::string>{}
                               : searchDirs(Commands->front());
    };
  };
  for (const auto &[Path, Text] : Open)
    if (!isHeaderFile(Path) &&
        cuda_async_lint::includes(Text, Path, Header, SearchDirsOf(Path)))
      return Known[std::string(Header)] = Path;
  // The last includer found, while it still includes the header.
  if (auto It = Known.find(std::string(Header)); It != Known.end()) {
    auto Buffer = MemoryBuffer::getFile(It->second, /*IsText=*/true);
    if (Buffer && cuda_async_lint::includes((*Buffer)->getBuffer(), It->second,
                                            Header, SearchDirsOf(It->second)))
      return It->second;
    Known.erase(It);
  }
  // The candidates: the database's source files, and those beside the
  // header and in its parent directory, whatever the database lists (it may
  // list none, or be another project's); nearest the header first.
  std::vector<std::string> Listed =
      Database ? Database->getAllFiles() : std::vector<std::string>();
  for (StringRef Dir :
       {sys::path::parent_path(Header),
        sys::path::parent_path(sys::path::parent_path(Header))}) {
    std::error_code EC;
    for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      if (sys::fs::is_regular_file(It->path()))
        Listed.push_back(It->path());
  }
  StringRef HeaderDir = sys::path::parent_path(Header);
  auto Distance = [&](StringRef F) {
    StringRef Dir = sys::path::parent_path(F);
    long Common = 0;
    for (auto A = sys::path::begin(Dir), B = sys::path::begin(HeaderDir);
         A != sys::path::end(Dir) && B != sys::path::end(HeaderDir) && *A == *B;
         ++A, ++B)
      ++Common;
    return -Common;
  };
  std::vector<std::pair<long, std::string>> Ranked;
  for (std::string &F : Listed)
    if (languageOfFile(F) && !isHeaderFile(F) && sys::path::is_absolute(F))
      Ranked.push_back({Distance(F), std::move(F)});
  llvm::sort(Ranked);
  Ranked.erase(std::unique(Ranked.begin(), Ranked.end()), Ranked.end());
  // Each file read once per search, at most MaxFilesRead of them.
  std::map<std::string, std::optional<std::string>> Texts;
  auto TextOf =
      [&](const std::string &F) -> const std::optional<std::string> & {
    auto [It, New] = Texts.try_emplace(F);
    if (New && Texts.size() <= MaxFilesRead)
      if (auto Buffer = MemoryBuffer::getFile(F, /*IsText=*/true))
        It->second = (*Buffer)->getBuffer().str();
    return It->second;
  };
  auto DirectIncluder = [&](StringRef H) -> std::optional<std::string> {
    for (const auto &[D, F] : Ranked) {
      const std::optional<std::string> &Text = TextOf(F);
      if (Text && cuda_async_lint::includes(*Text, F, H, SearchDirsOf(F)))
        return F;
    }
    return std::nullopt;
  };
  if (std::optional<std::string> F = DirectIncluder(Header))
    return Known[std::string(Header)] = *F;
  // Through the headers that include it ('DeviceVector.cuh' through
  // 'IVFBase.cuh' through 'IVFBase.cu'), up to three levels: the headers of
  // the directories the candidate files are in.
  std::vector<std::string> Headers;
  std::set<std::string> Dirs;
  for (const auto &[D, F] : Ranked)
    Dirs.insert(std::string(sys::path::parent_path(F)));
  for (const std::string &Dir : Dirs) {
    std::error_code EC;
    for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      if (isHeaderFile(It->path()) && It->path() != Header)
        Headers.push_back(It->path());
  }
  auto NoSearchDirs = [] { return std::vector<std::string>(); };
  std::vector<std::string> Level{std::string(Header)};
  std::set<std::string> Seen{std::string(Header)};
  for (int Depth = 0; Depth < 3 && !Level.empty(); ++Depth) {
    std::vector<std::string> Next;
    for (const std::string &H : Level)
      for (const std::string &Outer : Headers) {
        if (Seen.count(Outer))
          continue;
        const std::optional<std::string> &Text = TextOf(Outer);
        if (!Text || !cuda_async_lint::includes(*Text, Outer, H, NoSearchDirs))
          continue;
        Seen.insert(Outer);
        if (std::optional<std::string> F = DirectIncluder(Outer))
          return Known[std::string(Header)] = *F;
        Next.push_back(Outer);
      }
    Level = std::move(Next);
  }
  return std::nullopt;
}

} // namespace cuda_async_lint
