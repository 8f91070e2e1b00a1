//===- LanguageServer.cpp -------------------------------------------------===//

#include "LanguageServer.h"
#include "Config.h"
#include "Diagnostics.h"
#include "HeaderIncluders.h"
#include "Transport.h"
#include "run/Analysis.h"
#include "run/WorkerProcesses.h"
#include "support/FileUri.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"
#include <cerrno>
#include <map>
#include <poll.h>
#include <unistd.h>

namespace cuda_async_lint::lsp {

namespace {

using Clock = std::chrono::steady_clock;
using llvm::json::Object;
using llvm::json::Value;

/// The path of a file:// URI (percent-decoded); none for other schemes.
std::optional<std::string> pathOfUri(llvm::StringRef Uri) {
  if (!Uri.consume_front("file://"))
    return std::nullopt;
  std::string Path;
  for (size_t I = 0; I < Uri.size(); ++I) {
    unsigned Byte = 0;
    if (Uri[I] == '%' && I + 2 < Uri.size() + 0 &&
        !Uri.substr(I + 1, 2).getAsInteger(16, Byte)) {
      Path += char(Byte);
      I += 2;
    } else {
      Path += Uri[I];
    }
  }
  if (!llvm::sys::path::is_absolute(Path))
    return std::nullopt;
  return Path;
}

/// An open document: the editor's text, and the analysis of it.
struct Document {
  std::string Uri, Path;
  /// The path findings name it by (symbolic links resolved).
  std::string RealPath;
  int64_t Version = 0;
  std::string Text;
  /// When its next analysis starts, if one is due.
  std::optional<Clock::time_point> Due;
  /// The running analysis: its worker, and the text it reads.
  std::optional<size_t> Worker;
  int64_t RunningVersion = 0;
  std::string RunningText;
  /// The findings published, and the text and version they are of.
  std::optional<int64_t> AnalysedVersion;
  std::string AnalysedText;
  std::vector<ResolvedFinding> Findings;
  /// A header: the source file its running analysis parses (empty: itself).
  std::string Through;
};

class Server {
public:
  Server(const ServerSetup &Setup, llvm::raw_ostream &Out,
         llvm::raw_ostream &Log)
      : Setup(Setup), Out(Out), Log(Log),
        Fallback(makeCommandLineDatabase(Setup.ExtraArgs)) {}

  int run(int In);

private:
  void handle(Incoming Message);
  void request(llvm::StringRef Method, const Value &Id, const Object *Params);
  void notified(llvm::StringRef Method, const Object *Params);
  Value initialize(const Object *Params);
  void didOpen(const Object &Params);
  void didChange(const Object &Params);
  std::optional<Value> codeAction(const Value &Id, const Object *Params);

  Document *document(const Object *TextDocument);
  void cancel(Document &D);
  void startDue();
  void finished(size_t Worker, WorkerOutcome O);
  void publish(const Document &D, llvm::json::Array Diagnostics);
  const LintCompilationDatabase &databaseFor(const std::string &Path);
  void send(const Value &Message);
  void log(const llvm::Twine &Line) {
    if (Setup.Verbose)
      Log << "cuda-async-lint --lsp: " << Line << "\n";
  }

  const ServerSetup &Setup;
  llvm::raw_ostream &Out, &Log;
  std::unique_ptr<LintCompilationDatabase> Fallback;
  /// Databases by directory (null: none could be loaded there).
  std::map<std::string, std::unique_ptr<LintCompilationDatabase>> Databases;
  HeaderIncluders Includers;
  std::map<std::string, Document> Documents; ///< By URI.
  std::map<size_t, std::string> RunningFor;  ///< Worker -> URI.
  WorkerSet Workers;
  size_t NextWorker = 0;
  PositionEncoding Encoding = PositionEncoding::UTF16;
  bool Initialized = false, ShutDown = false;
  std::optional<int> ExitStatus;
};

void Server::send(const Value &Message) {
  Out << frame(Message);
  Out.flush();
}

int Server::run(int In) {
  MessageReader Reader;
  while (!ExitStatus) {
    std::vector<pollfd> Fds{{In, POLLIN, 0}};
    int WaitMs = Workers.prepare(Fds);
    Clock::time_point Now = Clock::now();
    for (const auto &[Uri, D] : Documents)
      if (D.Due && !D.Worker && Workers.size() < std::max(1u, Setup.Jobs)) {
        auto Left =
            std::chrono::ceil<std::chrono::milliseconds>(*D.Due - Now).count();
        int Ms = int(std::max<int64_t>(0, Left));
        WaitMs = WaitMs < 0 ? Ms : std::min(WaitMs, Ms);
      }
    if (::poll(Fds.data(), Fds.size(), WaitMs) < 0 && errno != EINTR)
      return 1;
    if (Fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char Buffer[65536];
      ssize_t N = ::read(In, Buffer, sizeof(Buffer));
      if (N < 0 && errno != EINTR && errno != EAGAIN)
        return 1;
      if (N == 0) {
        // The client went away without exit.
        log("the client closed the connection");
        return ShutDown ? 0 : 1;
      }
      if (N > 0)
        Reader.feed(llvm::StringRef(Buffer, size_t(N)));
      while (!ExitStatus)
        if (std::optional<Incoming> Message = Reader.next())
          handle(std::move(*Message));
        else
          break;
    }
    Workers.serve(
        Fds, [&](size_t W, WorkerOutcome O) { finished(W, std::move(O)); });
    startDue();
  }
  return *ExitStatus;
}

void Server::handle(Incoming Message) {
  if (auto *Bad = std::get_if<BadMessage>(&Message)) {
    log("a message that is not one: " + Bad->Why);
    send(errorResponse(nullptr, ErrorCode::ParseError, Bad->Why));
    return;
  }
  Value &V = std::get<Value>(Message);
  Object *O = V.getAsObject();
  const Value *Id = O ? O->get("id") : nullptr;
  std::optional<llvm::StringRef> Method =
      O ? O->getString("method") : std::nullopt;
  if (O && !Method && (O->get("result") || O->get("error")))
    return; // A response: this server sends no requests.
  if (!O || !Method) {
    send(errorResponse(Id ? *Id : Value(nullptr), ErrorCode::InvalidRequest,
                       "a JSON-RPC message has an object with a 'method'"));
    return;
  }
  const Value *P = O->get("params");
  const Object *Params = P ? P->getAsObject() : nullptr;
  if (Id)
    request(*Method, *Id, Params);
  else
    notified(*Method, Params);
}

void Server::request(llvm::StringRef Method, const Value &Id,
                     const Object *Params) {
  if (Method == "initialize") {
    if (Initialized)
      return send(errorResponse(Id, ErrorCode::InvalidRequest,
                                "initialize was already received"));
    Initialized = true;
    return send(response(Id, initialize(Params)));
  }
  if (!Initialized)
    return send(
        errorResponse(Id, ErrorCode::ServerNotInitialized, "initialize first"));
  if (ShutDown)
    return send(errorResponse(Id, ErrorCode::InvalidRequest,
                              "the server is shut down: only exit remains"));
  if (Method == "shutdown") {
    ShutDown = true;
    for (auto &[Uri, D] : Documents)
      cancel(D);
    return send(response(Id, nullptr));
  }
  if (Method == "textDocument/codeAction") {
    if (std::optional<Value> Actions = codeAction(Id, Params))
      send(response(Id, std::move(*Actions)));
    return;
  }
  send(errorResponse(Id, ErrorCode::MethodNotFound,
                     ("no method '" + Method + "'").str()));
}

void Server::notified(llvm::StringRef Method, const Object *Params) {
  if (Method == "exit") {
    ExitStatus = ShutDown ? 0 : 1;
    return;
  }
  if (!Initialized || ShutDown || !Params)
    return;
  if (Method == "textDocument/didOpen")
    return didOpen(*Params);
  if (Method == "textDocument/didChange")
    return didChange(*Params);
  const Object *TextDocument = Params->getObject("textDocument");
  if (Method == "textDocument/didSave") {
    if (Document *D = document(TextDocument))
      D->Due = Clock::now();
    return;
  }
  if (Method == "textDocument/didClose") {
    if (Document *D = document(TextDocument)) {
      cancel(*D);
      publish(*D, {});
      Documents.erase(D->Uri);
    }
    return;
  }
  // Anything else ($/cancelRequest, $/setTrace, configuration changes): a
  // notification needs no answer.
}

Value Server::initialize(const Object *Params) {
  // UTF-8 positions where the client offers them (LSP 3.17), else the
  // protocol's UTF-16.
  const Object *Caps = Params ? Params->getObject("capabilities") : nullptr;
  const Object *General = Caps ? Caps->getObject("general") : nullptr;
  if (const llvm::json::Array *Encodings =
          General ? General->getArray("positionEncodings") : nullptr)
    for (const Value &E : *Encodings)
      if (E.getAsString() == "utf-8")
        Encoding = PositionEncoding::UTF8;
  Object Capabilities{
      {"positionEncoding",
       Encoding == PositionEncoding::UTF8 ? "utf-8" : "utf-16"},
      // Full text on each change; save without text (the buffer has it).
      {"textDocumentSync", Object{{"openClose", true},
                                  {"change", 1},
                                  {"save", Object{{"includeText", false}}}}},
      {"codeActionProvider",
       Object{{"codeActionKinds", llvm::json::Array{"quickfix"}}}}};
  return Object{{"capabilities", std::move(Capabilities)},
                {"serverInfo", Object{{"name", "cuda-async-lint"},
                                      {"version", CUDA_ASYNC_LINT_VERSION}}}};
}

Document *Server::document(const Object *TextDocument) {
  std::optional<llvm::StringRef> Uri =
      TextDocument ? TextDocument->getString("uri") : std::nullopt;
  if (!Uri)
    return nullptr;
  auto It = Documents.find(Uri->str());
  return It == Documents.end() ? nullptr : &It->second;
}

void Server::didOpen(const Object &Params) {
  const Object *TD = Params.getObject("textDocument");
  std::optional<llvm::StringRef> Uri = TD ? TD->getString("uri") : std::nullopt;
  std::optional<llvm::StringRef> Text =
      TD ? TD->getString("text") : std::nullopt;
  std::optional<std::string> Path = Uri ? pathOfUri(*Uri) : std::nullopt;
  if (!Path || !Text) {
    log("didOpen of a document that is not a file, ignored");
    return;
  }
  Document &D = Documents[Uri->str()];
  cancel(D);
  D = Document();
  D.Uri = Uri->str();
  D.Path = *Path;
  llvm::SmallString<256> Real;
  D.RealPath = llvm::sys::fs::real_path(*Path, Real) ? *Path : Real.str().str();
  D.Version = TD->getInteger("version").value_or(0);
  D.Text = Text->str();
  D.Due = Clock::now();
}

void Server::didChange(const Object &Params) {
  const Object *TD = Params.getObject("textDocument");
  Document *D = document(TD);
  const llvm::json::Array *Changes = Params.getArray("contentChanges");
  if (!D || !Changes)
    return;
  for (const Value &C : *Changes) {
    const Object *Change = C.getAsObject();
    std::optional<llvm::StringRef> Text =
        Change ? Change->getString("text") : std::nullopt;
    if (!Text)
      continue;
    const Object *Range = Change->getObject("range");
    if (!Range) {
      D->Text = Text->str();
      continue;
    }
    // An incremental change, from a client that does not honour the full
    // sync this server asks for.
    std::optional<Position> Start = positionFromJSON(Range->get("start"));
    std::optional<Position> End = positionFromJSON(Range->get("end"));
    std::optional<size_t> From =
        Start ? offsetOf(D->Text, *Start, Encoding) : std::nullopt;
    std::optional<size_t> To =
        End ? offsetOf(D->Text, *End, Encoding) : std::nullopt;
    if (!From || !To || *To < *From) {
      log("a change outside " + D->Uri + ", ignored");
      continue;
    }
    D->Text.replace(*From, *To - *From, Text->str());
  }
  D->Version = TD->getInteger("version").value_or(D->Version + 1);
  // The running analysis reads a text that is gone.
  cancel(*D);
  D->Due = Clock::now() + Setup.Debounce;
}

void Server::cancel(Document &D) {
  if (!D.Worker)
    return;
  Workers.cancel(*D.Worker);
  RunningFor.erase(*D.Worker);
  log("cancelled the analysis of " + D.Uri + " (version " +
      llvm::Twine(D.RunningVersion) + ")");
  D.Worker.reset();
  if (!D.Due)
    D.Due = Clock::now();
}

const LintCompilationDatabase &Server::databaseFor(const std::string &Path) {
  auto Lists = [&](const LintCompilationDatabase *DB) {
    if (!DB)
      return false;
    llvm::Expected<std::vector<clang::tooling::CompileCommand>> C =
        DB->commandsFor(Path);
    if (C)
      return true;
    llvm::consumeError(C.takeError());
    return false;
  };
  auto Load = [&](const std::string &Dir) -> LintCompilationDatabase * {
    auto [It, New] = Databases.try_emplace(Dir);
    if (New) {
      llvm::Expected<std::unique_ptr<LintCompilationDatabase>> Loaded =
          loadCompilationDatabase(Dir);
      if (Loaded)
        It->second = std::move(*Loaded);
      else
        Log << "cuda-async-lint --lsp: " << llvm::toString(Loaded.takeError())
            << "\n";
    }
    return It->second.get();
  };
  if (!Setup.BuildPath.empty()) {
    if (LintCompilationDatabase *DB = Load(Setup.BuildPath); Lists(DB))
      return *DB;
    return *Fallback;
  }
  for (llvm::StringRef Dir = llvm::sys::path::parent_path(Path); !Dir.empty();
       Dir = llvm::sys::path::parent_path(Dir)) {
    for (const char *Sub : {"", "build"}) {
      llvm::SmallString<256> Candidate(Dir);
      llvm::sys::path::append(Candidate, Sub);
      llvm::SmallString<256> File(Candidate);
      llvm::sys::path::append(File, "compile_commands.json");
      if (llvm::sys::fs::exists(File))
        if (LintCompilationDatabase *DB = Load(std::string(Candidate));
            Lists(DB))
          return *DB;
    }
    if (Dir == llvm::sys::path::root_path(Dir))
      break;
  }
  return *Fallback;
}

void Server::startDue() {
  Clock::time_point Now = Clock::now();
  for (auto &[Uri, D] : Documents) {
    if (Workers.size() >= std::max(1u, Setup.Jobs))
      return;
    if (!D.Due || *D.Due > Now || D.Worker)
      continue;
    D.Due.reset();
    // A header is analysed through a source file that includes it
    // (HeaderIncluders.h); alone, if none does.
    std::string Unit = D.Path;
    D.Through.clear();
    if (isHeaderFile(D.Path)) {
      std::vector<std::pair<std::string, std::string>> Open;
      for (const auto &[OtherUri, Other] : Documents)
        Open.push_back({Other.Path, Other.Text});
      if (std::optional<std::string> Includer =
              Includers.find(D.Path, Open, &databaseFor(D.Path))) {
        Unit = *Includer;
        D.Through = *Includer;
      }
    }
    AnalysisOptions Options;
    Options.Database = &databaseFor(Unit);
    if (!D.Through.empty())
      Options.TemplatesOf = D.RealPath.empty() ? D.Path : D.RealPath;
    Options.Adjuster = Setup.Adjuster;
    Options.Config = Setup.Config;
    Options.Timeout = Setup.Timeout;
    // Every open buffer, as the editor has it: a header being edited too.
    for (const auto &[OtherUri, Other] : Documents)
      Options.Unsaved.push_back({Other.Path, Other.Text});
    size_t Id = NextWorker++;
    std::string Path = Unit;
    if (std::string Error = Workers.start(
            Id,
            [&] {
              return encodeFileResult(
                  analyzeUnit(Path, Options, UnitWork::Check));
            },
            Setup.Timeout);
        !Error.empty()) {
      publish(D, llvm::json::Array{failureDiagnostic(
                     FailedFile{D.Path, "", Error}, D.Path, D.Text, Encoding)});
      continue;
    }
    D.Worker = Id;
    D.RunningVersion = D.Version;
    D.RunningText = D.Text;
    RunningFor[Id] = Uri;
    log("analysing " + D.Uri + " (version " + llvm::Twine(D.Version) + ")" +
        (D.Through.empty() ? "" : " through " + D.Through));
  }
}

void Server::finished(size_t Worker, WorkerOutcome O) {
  auto It = RunningFor.find(Worker);
  if (It == RunningFor.end())
    return;
  Document &D = Documents.at(It->second);
  RunningFor.erase(It);
  D.Worker.reset();
  FileResult R = resultOfWorker(D.Through.empty() ? D.Path : D.Through,
                                std::move(O), Setup.Timeout);
  // A header analysed through its includer: say so where it failed.
  if (R.Failure && !D.Through.empty())
    R.Failure->Reason =
        "through '" + D.Through + "', which includes it: " + R.Failure->Reason;
  D.AnalysedVersion = D.RunningVersion;
  D.AnalysedText = std::move(D.RunningText);
  D.Findings.clear();
  llvm::json::Array Diagnostics;
  if (R.Failure) {
    Diagnostics.push_back(
        failureDiagnostic(*R.Failure, D.Path, D.AnalysedText, Encoding));
  } else {
    for (ResolvedFinding &F : R.Findings)
      if (F.Loc.File == D.RealPath || F.Loc.File == D.Path) {
        Diagnostics.push_back(
            diagnosticOf(F, D.AnalysedText, Encoding, Setup.Docs));
        D.Findings.push_back(std::move(F));
      }
    // Templates the includer never instantiates were not analysed: say so,
    // where otherwise nothing would say why they show nothing.
    if (!R.UninstantiatedTemplates.empty())
      Diagnostics.push_back(uninstantiatedDiagnostic(
          R.UninstantiatedTemplates, D.Through, D.AnalysedText, Encoding));
  }
  log(llvm::formatv("{0} (version {1}): {2} diagnostics", D.Uri,
                    D.AnalysedVersion.value_or(0), Diagnostics.size())
          .str());
  publish(D, std::move(Diagnostics));
}

void Server::publish(const Document &D, llvm::json::Array Diagnostics) {
  Object Params{{"uri", D.Uri}, {"diagnostics", std::move(Diagnostics)}};
  if (D.AnalysedVersion)
    Params["version"] = *D.AnalysedVersion;
  send(notification("textDocument/publishDiagnostics", std::move(Params)));
}

std::optional<Value> Server::codeAction(const Value &Id, const Object *Params) {
  const Object *TD = Params ? Params->getObject("textDocument") : nullptr;
  Document *D = document(TD);
  const Object *Range = Params ? Params->getObject("range") : nullptr;
  std::optional<Position> Start =
      Range ? positionFromJSON(Range->get("start")) : std::nullopt;
  std::optional<Position> End =
      Range ? positionFromJSON(Range->get("end")) : std::nullopt;
  if (!D || !Start || !End) {
    send(errorResponse(Id, ErrorCode::InvalidParams,
                       D ? "the range is not {start, end} positions"
                         : "not an open document"));
    return std::nullopt;
  }
  std::optional<size_t> From = offsetOf(D->Text, *Start, Encoding);
  std::optional<size_t> To = offsetOf(D->Text, *End, Encoding);
  if (!From || !To || *To < *From) {
    send(errorResponse(Id, ErrorCode::InvalidParams,
                       llvm::formatv("the range ({0}:{1} to {2}:{3}) is not "
                                     "within the document",
                                     Start->Line, Start->Character, End->Line,
                                     End->Character)
                           .str()));
    return std::nullopt;
  }
  llvm::json::Array Actions;
  // Fixes are offsets in the text analysed: offered while it is the text.
  if (D->AnalysedVersion != D->Version || D->AnalysedText != D->Text)
    return Value(std::move(Actions));
  for (const ResolvedFinding &F : D->Findings) {
    ByteRange R = findingRange(F, D->Text);
    if (R.End < *From || R.Begin > *To)
      continue;
    if (std::optional<Object> Fix =
            quickFixOf(F, diagnosticOf(F, D->Text, Encoding, Setup.Docs),
                       D->Uri, D->Text, Encoding))
      Actions.push_back(std::move(*Fix));
  }
  return Value(std::move(Actions));
}

} // namespace

int runLanguageServer(const ServerSetup &Setup, int In, llvm::raw_ostream &Out,
                      llvm::raw_ostream &Log) {
  Server S(Setup, Out, Log);
  return S.run(In);
}

} // namespace cuda_async_lint::lsp
