//===- Analysis.cpp -------------------------------------------------------===//

#include "Analysis.h"
#include "FindingCollector.h"
#include "Gate.h"
#include "NvccAcceptedErrors.h"
#include "ParkedParses.h"
#include "ParseErrors.h"
#include "TidyCheckAdaptor.h"
#include "TranslationUnitCache.h"
#include "WorkerProcesses.h"
#include "analysis/code/TraversalScope.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "compile/InputFiles.h"
#include "compile/NvccDialect.h"
#include "config/ExtraArgs.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "cuda-async-lint/UninstantiatedTemplates.h"
#include "summaries/ProgramQueries.h"
#include "summaries/ProgramSummaries.h"
#include "summaries/Summarize.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <cstring>
#include <list>
#include <set>

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Collects what clang-tidy's option reading reports (clang-tidy-config).
class ConfigurationDiagnostics : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    Messages.push_back(Text.str().str());
  }
  std::vector<std::string> take() { return std::move(Messages); }

private:
  std::vector<std::string> Messages;
};

/// One parse of one file: classifies its errors once the translation unit is
/// parsed (deferred CUDA diagnostics included), then runs the checks'
/// matchers only if the host code is whole: no errors, or only errors nvcc
/// accepts. A failed file's findings would be dropped anyway.
struct CheckRun {
  ast_matchers::MatchFinder &Finder;
  const ParseErrorCollector &Errors;
  /// What to make of the parse: findings, the unit's summary, or both.
  UnitWork Work = UnitWork::Check;
  /// Runs after the parse (and the summary), before the checks.
  llvm::function_ref<void()> BeforeChecks = nullptr;
  /// Runs after the parse (and the summary), before the checks: true in a
  /// process that kept the parse and is to check it now (ParkedParses.h).
  llvm::function_ref<bool()> Park = nullptr;
  std::chrono::milliseconds ShortestKept{0};
  /// Every error is one nvcc accepts (NvccAcceptedErrors.h).
  bool OnlyErrorsNvccAccepts = false;
  /// The parse may end early asking for another with what its errors show
  /// to be nvcc's spellings blanked (NvccAcceptedErrors.h: Rewrite).
  bool MayRewrite = false;
  /// What the next parse is to read as blanks, if it ended so.
  BlankedSpans Rewrites{};
  /// Findings in system headers are wanted: match them too.
  bool SystemHeaders = false;
  /// Record the files the parse read and their hashes, for a cache.
  bool RecordInputs = false;
  /// The files the parse read rewritten (compile/NvccDialect).
  std::shared_ptr<RewrittenFiles> Rewritten = nullptr;
  std::string Summary{};
  /// The questions the checks asked of the program (ProgramQueries.h).
  std::string Queries{};
  /// AnalysisOptions::TemplatesOf, and what the unit left of it.
  std::string TemplatesOf{};
  std::vector<std::pair<std::string, unsigned>> Uninstantiated{};
  std::vector<std::pair<std::string, std::string>> Inputs{};
  /// Those of them the parse read, for the summary.
  std::vector<std::pair<std::string, std::string>> SummaryInputs{};
  /// When the consumer was made (the parse starts), when the translation
  /// unit was complete, and when the checks were done.
  std::chrono::steady_clock::time_point Started{}, Parsed{}, Analysed{};

  class Consumer : public ASTConsumer {
  public:
    explicit Consumer(CheckRun &Run) : Run(Run) {}
    void HandleTranslationUnit(ASTContext &Ctx) override {
      Run.Parsed = std::chrono::steady_clock::now();
      Analyse(Ctx);
      Run.Analysed = std::chrono::steady_clock::now();
    }

  private:
    void Analyse(ASTContext &Ctx) {
      // Errors that a parse of the files rewritten as nvcc reads them would
      // not make: no analysis of this parse, another one.
      if (Run.Errors.errors() != 0 && Run.MayRewrite) {
        Run.Rewrites = nvccRewritesFor(Run.Errors, Ctx);
        if (!Run.Rewrites.empty())
          return;
      }
      Run.OnlyErrorsNvccAccepts =
          Run.Errors.errors() != 0 &&
          onlyErrorsNvccAccepts(Run.Errors.locations(), Run.Errors.ids(), Ctx);
      if (Run.Errors.errors() != 0 && !Run.OnlyErrorsNvccAccepts)
        return;
      SourceManager &SM = Ctx.getSourceManager();
      // The files the parse read: a summary is made from them alone. The
      // checks may open more (a note's location in another unit, whose
      // summary this worker may or may not have seen yet).
      llvm::DenseSet<const FileEntry *> ParseRead;
      if (Run.Work != UnitWork::Check) {
        WithoutProgramSummaries Alone;
        Run.Summary = llvm::formatv(
            "{0}", llvm::json::Value(summarizeTranslationUnit(Ctx)));
        for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
          ParseRead.insert(It->first);
      }
      if (Run.Work != UnitWork::Summarize) {
        // Keeping a parse costs a few milliseconds (a fork, the checks'
        // copy-on-write faults, the kept process's exit): a shorter parse
        // is parsed again if need be.
        auto Parse = Run.Parsed - Run.Started;
        if (Run.Park && Parse >= Run.ShortestKept && Run.Park()) {
          // A parked process told to check against the whole program: its
          // parse took what it took, its checks start now.
          Run.Parsed = std::chrono::steady_clock::now();
          Run.Started = Run.Parsed - Parse;
          Run.Summary.clear();
        } else if (Run.BeforeChecks) {
          Run.BeforeChecks();
        }
        // The findings hold while the program answers these alike.
        ProgramQueries Queries;
        Queries.setUnit(unitFile(Ctx.getSourceManager()));
        recordProgramQueries(&Queries);
        matchUserCode(Ctx);
        recordProgramQueries(nullptr);
        Run.Queries = llvm::formatv("{0}", Queries.toJSON());
        if (!Run.TemplatesOf.empty())
          for (UninstantiatedTemplate &T :
               uninstantiatedTemplates(Ctx, Run.TemplatesOf))
            Run.Uninstantiated.push_back({std::move(T.Name), T.Line});
      }
      // Every file the parse read, with a hash of the bytes it read: the
      // summary or the findings hold while none changes.
      if (!Run.RecordInputs)
        return;
      for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
        std::optional<llvm::MemoryBufferRef> Bytes =
            SM.getMemoryBufferForFileOrNone(It->first);
        std::string Path = realPathOf(It->first);
        // A file read as nvcc reads it was rewritten in memory: the cache
        // checks the file's own bytes (compile/NvccDialect).
        std::unique_ptr<llvm::MemoryBuffer> OnDisk;
        if (Bytes && Run.Rewritten && Run.Rewritten->count(Path))
          if (auto File = llvm::MemoryBuffer::getFile(
                  Path, /*IsText=*/false, /*RequiresNullTerminator=*/false))
            OnDisk = std::move(*File);
        Run.Inputs.push_back(
            {Path, !Bytes ? ""
                          : fileContentHash(OnDisk ? OnDisk->getBuffer()
                                                   : Bytes->getBuffer())});
        if (ParseRead.contains(It->first))
          Run.SummaryInputs.push_back(Run.Inputs.back());
      }
      for (auto *Inputs : {&Run.Inputs, &Run.SummaryInputs}) {
        llvm::sort(*Inputs);
        Inputs->erase(llvm::unique(*Inputs), Inputs->end());
      }
    }

    /// Runs the matchers over host code only: not the declarations of
    /// system headers (as clangd does), unless --system-headers, and not
    /// device-only functions (analysis/code/TraversalScope.h). The traversal
    /// scope bounds the matchers and the indexes that walk the unit
    /// (HostFunctions, the provenance site finder).
    void matchUserCode(ASTContext &Ctx) {
      Ctx.setTraversalScope(hostTraversalScope(Ctx, Run.SystemHeaders));
      Run.Finder.matchAST(Ctx);
    }
    CheckRun &Run;
  };
  std::unique_ptr<ASTConsumer> newASTConsumer() {
    Started = std::chrono::steady_clock::now();
    return std::make_unique<Consumer>(*this);
  }
};

/// The parse of one CheckRun. Before it starts, what clang makes an error
/// by default and the compiler of the file accepts is mapped below an
/// error (NvccAcceptedErrors.h: Downgrade): clang then reads the construct
/// as gcc does, and the collector reports it beside the findings.
class CheckAction : public ASTFrontendAction {
public:
  explicit CheckAction(CheckRun &Run) : Run(Run) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    downgradeNvccAccepted(CI.getDiagnostics(), CI.getLangOpts());
    return Run.newASTConsumer();
  }

private:
  CheckRun &Run;
};

class CheckActionFactory : public tooling::FrontendActionFactory {
public:
  explicit CheckActionFactory(CheckRun &Run) : Run(Run) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<CheckAction>(Run);
  }

private:
  CheckRun &Run;
};

/// Adds \p More to \p Blanks; true if any span is new.
bool addBlanks(BlankedSpans &Blanks, BlankedSpans More) {
  bool Added = false;
  for (BlankedFile &F : More) {
    auto It = llvm::find_if(Blanks,
                            [&](const BlankedFile &B) { return B.ID == F.ID; });
    if (It == Blanks.end()) {
      Blanks.push_back(std::move(F));
      Added = true;
      continue;
    }
    for (const BlankedSpan &S : F.Spans)
      if (llvm::none_of(It->Spans, [&](const BlankedSpan &T) {
            return T.Offset == S.Offset && T.Length == S.Length;
          })) {
        It->Spans.push_back(S);
        Added = true;
      }
  }
  return Added;
}

/// Runs the action as clang's own driver runs the compiler: without freeing
/// the AST, the preprocessor and their kin at the end (-disable-free, which
/// tooling turns off). Each translation unit is analysed in a worker process
/// that exits right after it, so tearing them down would only cost time.
class WorkerAction : public tooling::ToolAction {
public:
  explicit WorkerAction(tooling::FrontendActionFactory &Inner) : Inner(Inner) {}
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCH,
                     DiagnosticConsumer *Diagnostics) override {
    Invocation->getFrontendOpts().DisableFree = true;
    return Inner.runInvocation(std::move(Invocation), Files, std::move(PCH),
                               Diagnostics);
  }

private:
  tooling::FrontendActionFactory &Inner;
};

} // namespace

FileResult analyzeUnit(const std::string &File, const AnalysisOptions &Options,
                       UnitWork Work, llvm::function_ref<void()> BeforeChecks,
                       llvm::function_ref<bool()> Park) {
  // The file's configuration, as clang-tidy would read it for this file;
  // what clang-tidy's option reading says of it is kept for the report.
  ConfigurationDiagnostics ConfigDiags;
  DiagnosticOptions ConfigDiagOpts;
  DiagnosticsEngine ConfigEngine(DiagnosticIDs::create(), ConfigDiagOpts,
                                 &ConfigDiags, /*ShouldOwnClient=*/false);
  tidy::ClangTidyContext Tidy(Options.Config->makeProvider());
  Tidy.setDiagnosticsEngine(std::make_unique<DiagnosticOptions>(),
                            &ConfigEngine);
  Tidy.setCurrentFile(File);
  FindingCollector Sink(Tidy);
  std::vector<std::unique_ptr<TidyCheckAdaptor>> Checks;
  // As clang-tidy 21+ does, the matchers do not walk the declarations of
  // system headers, the CUDA toolkit's among them, unless findings there are
  // asked for: the traversal scope leaves them out (matchUserCode). Not by
  // MatchFinderOptions::IgnoreSystemHeaders, which asks every statement for
  // its begin location, a walk down to its leftmost leaf: quadratic in a
  // statement of N calls joined by '+'. What a check needs of a header's
  // declaration it looks up from user code.
  bool SystemHeaders = Tidy.getOptions().SystemHeaders.value_or(false);
  ast_matchers::MatchFinder Finder;
  for (const CheckInfo &Info : allChecks()) {
    if (!Tidy.isCheckEnabled(Info.Id))
      continue;
    Checks.push_back(
        std::make_unique<TidyCheckAdaptor>(Info, Info.Id, &Tidy, &Sink));
    Checks.back()->registerMatchers(&Finder);
  }

  auto Fail = [&](std::string Reason, std::string Errors) {
    FileResult Result;
    Result.File = File;
    Result.Failure =
        FailedFile{File, std::move(Errors) + "\n", std::move(Reason)};
    return Result;
  };
  // A database entry whose source is missing, unreadable or a FIFO (which
  // would block the parse forever) is an error for that file alone.
  if (std::string Problem = whyNotReadableFile(File); !Problem.empty())
    return Fail("its source cannot be read", Problem);
  // The editor's text where it has one, else the file's.
  auto Unsaved = llvm::find_if(
      Options.Unsaved, [&](const auto &Entry) { return Entry.first == File; });
  std::string Encoding = Unsaved != Options.Unsaved.end()
                             ? whyUnsupportedEncoding(File, Unsaved->second)
                             : whyUnsupportedEncoding(File);
  if (!Encoding.empty())
    return Fail("it does not parse", "fatal error: " + Encoding);
  llvm::Expected<std::vector<tooling::CompileCommand>> Listed =
      Options.Database->commandsFor(File);
  if (!Listed)
    return Fail("its compile command cannot be read",
                llvm::toString(Listed.takeError()));
  std::vector<tooling::CompileCommand> Commands = std::move(*Listed);
  // A command whose directory is gone would make ClangTool abort the whole
  // process ("Cannot chdir").
  for (const tooling::CompileCommand &Command : Commands)
    if (!llvm::sys::fs::is_directory(Command.Directory))
      return Fail("its compile command cannot run",
                  "the directory of its compile command, '" +
                      Command.Directory + "', does not exist");

  // Each translation unit gets its own view of the real file system: its
  // compile command's directory becomes that view's working directory, not
  // the process's, which the other threads (and the report's relative
  // paths) share. LLVM's AllTUsToolExecutor does the same. Files read
  // through it as nvcc reads them (compile/NvccDialect). A parse whose
  // errors show spellings nvcc accepts and clang cannot read is parsed
  // again with them blanked (NvccAcceptedErrors.h: Rewrite), at most twice;
  // the errors they answered are reported beside the findings.
  auto Rewritten = std::make_shared<RewrittenFiles>();
  constexpr unsigned MaxParses = 3;
  BlankedSpans Blanks;
  std::string RewrittenText;
  std::vector<std::string> RewrittenNames;
  std::unique_ptr<ParseErrorCollector> ErrorsOwner;
  std::unique_ptr<CheckRun> RunOwner;
  int Status = 0;
  // What the parses before the last took.
  std::chrono::steady_clock::duration EarlierParses{0};
  for (unsigned Parse = 1;; ++Parse) {
    ErrorsOwner = std::make_unique<ParseErrorCollector>(isNvccDowngraded);
    tooling::ClangTool Tool(
        *Options.Database, {File}, std::make_shared<PCHContainerOperations>(),
        makeNvccDialectFileSystem(llvm::vfs::createPhysicalFileSystem(),
                                  Rewritten, Blanks));
    Tool.setDiagnosticConsumer(ErrorsOwner.get());
    Tool.setPrintErrorMessage(false);
    // With the configuration's ExtraArgsBefore and ExtraArgs
    // (config/ExtraArgs.h).
    Tool.appendArgumentsAdjuster(
        parseAdjuster(Options.Adjuster, Tidy.getOptions()));
    // ClangTool keeps the texts by reference until it runs.
    std::list<std::string> UnsavedTexts;
    for (const auto &[Path, Text] : Options.Unsaved) {
      std::string &Mapped =
          UnsavedTexts.emplace_back(rewriteNvccSyntax(Text).value_or(Text));
      for (const BlankedFile &F : Blanks)
        if (F.Name == Path)
          blankSpans(Mapped, F.Spans);
      Tool.mapVirtualFile(Path, Mapped);
    }
    RunOwner = std::make_unique<CheckRun>(CheckRun{Finder, *ErrorsOwner});
    CheckRun &Run = *RunOwner;
    Run.Rewritten = Rewritten;
    Run.Work = Work;
    Run.BeforeChecks = BeforeChecks;
    Run.Park = Park;
    Run.ShortestKept =
        Options.ShortestParkedParse.value_or(ParkedParses::ShortestKept);
    Run.SystemHeaders = SystemHeaders;
    Run.MayRewrite = Parse < MaxParses;
    Run.TemplatesOf = Options.TemplatesOf;
    // Summaries go to the summary cache when there is one; findings only
    // to a result cache.
    Run.RecordInputs = Work != UnitWork::Check || Options.Results;
    CheckActionFactory Checks(Run);
    WorkerAction Action(Checks);
    Status = Tool.run(&Action);
    if (Run.Rewrites.empty())
      break;
    EarlierParses += Run.Parsed - Run.Started;
    for (const ParseDiagnostic &D : ErrorsOwner->diagnostics())
      if (isNvccRewritten(D.ID)) {
        RewrittenText += ErrorsOwner->textOf(D);
        RewrittenNames.push_back(diagnosticName(D.ID));
      }
    if (!addBlanks(Blanks, std::move(Run.Rewrites)))
      break;
  }
  ParseErrorCollector &Errors = *ErrorsOwner;
  CheckRun &Run = *RunOwner;

  FileResult Result;
  Result.File = File;
  Result.ConfigurationWarnings = ConfigDiags.take();
  auto Micros = [](auto From, auto To) -> uint64_t {
    return To > From ? std::chrono::duration_cast<std::chrono::microseconds>(
                           To - From)
                           .count()
                     : 0;
  };
  Result.ParseMicroseconds = Micros(Run.Started - EarlierParses, Run.Parsed);
  Result.AnalysisMicroseconds = Micros(Run.Parsed, Run.Analysed);
  // What clang rejects and nvcc accepts, reported beside the findings.
  auto Tolerated = [&] {
    FailedFile Record{File, RewrittenText + Errors.allText()};
    Record.Diagnostics = RewrittenNames;
    for (const ParseDiagnostic &D : Errors.diagnostics())
      Record.Diagnostics.push_back(diagnosticName(D.ID));
    return Record;
  };
  if (Errors.errors() != 0 && Run.OnlyErrorsNvccAccepts) {
    Result.ToleratedErrors = Tolerated();
  } else if (Status != 0 || Errors.errors() != 0 || !Run.Rewrites.empty()) {
    std::string Text = Errors.text();
    if (Text.empty())
      Text = "clang could not process the file\n";
    Result.Failure = FailedFile{File, std::move(Text)};
    return Result;
  } else if (!Errors.diagnostics().empty() || !RewrittenText.empty()) {
    Result.ToleratedErrors = Tolerated();
  }
  Result.Inputs = std::move(Run.Inputs);
  Result.SummaryInputs = std::move(Run.SummaryInputs);
  Result.Summary = std::move(Run.Summary);
  if (Work == UnitWork::Summarize)
    return Result;
  Result.Queries = std::move(Run.Queries);
  Result.UninstantiatedTemplates = std::move(Run.Uninstantiated);
  Result.Findings = Sink.take();
  Result.Suppressed = Sink.takeSuppressed();
  for (ResolvedFinding &F : Result.Findings)
    F.BuildDirectory = Commands.empty() ? "" : Commands.front().Directory;
  sortAndUnique(Result.Findings);
  return Result;
}

namespace {

/// What a crashed worker said of where clang was: the "Stack dump:" lines
/// of LLVM's crash handler that name source locations, not the frames.
std::string crashContext(llvm::StringRef Diagnostics) {
  size_t Dump = Diagnostics.find("Stack dump:\n");
  if (Dump == llvm::StringRef::npos)
    return "";
  std::string Out;
  llvm::SmallVector<llvm::StringRef> Lines;
  Diagnostics.substr(Dump).split(Lines, '\n', /*MaxSplit=*/12);
  for (llvm::StringRef Line : llvm::ArrayRef(Lines).drop_front())
    if (!Line.ltrim().starts_with("#") && !Line.trim().empty() &&
        !Line.contains("Program arguments:"))
      Out += Line.trim().str() + "\n";
  return Out;
}

/// The result of a worker that did not finish: the file fails, saying why.
FileResult failedWorker(const std::string &File, const WorkerOutcome &O,
                        std::chrono::seconds Timeout) {
  FailedFile Failure{File, "", ""};
  switch (O.State) {
  case WorkerOutcome::Status::TimedOut:
    Failure.Reason = llvm::formatv("its analysis did not finish within {0} "
                                   "seconds (--timeout)",
                                   Timeout.count());
    break;
  case WorkerOutcome::Status::Crashed:
    Failure.Reason = llvm::formatv("the analysis crashed (signal {0}: {1})",
                                   O.Signal, ::strsignal(O.Signal));
    Failure.Errors = crashContext(O.Diagnostics);
    break;
  case WorkerOutcome::Status::ExitedEarly:
    Failure.Reason =
        llvm::formatv("its worker process exited with status {0}", O.ExitCode);
    Failure.Errors = O.Diagnostics;
    break;
  case WorkerOutcome::Status::NotStarted:
  case WorkerOutcome::Status::Finished:
    Failure.Reason = O.Error;
    break;
  }
  FileResult R;
  R.File = File;
  R.Failure = std::move(Failure);
  return R;
}

/// Drops the findings an earlier file already reported (a header's, say).
void dropReported(
    std::vector<ResolvedFinding> &Findings,
    std::set<std::tuple<std::string, unsigned, std::string, std::string>>
        &Reported) {
  llvm::erase_if(Findings, [&](const ResolvedFinding &F) {
    return !Reported.emplace(F.Loc.File, F.Loc.Offset, F.CheckId, F.Message)
                .second;
  });
}

} // namespace

FileResult resultOfWorker(const std::string &File, WorkerOutcome O,
                          std::chrono::seconds Timeout) {
  if (O.State == WorkerOutcome::Status::Finished) {
    llvm::Expected<FileResult> Decoded = decodeFileResult(O.Output);
    if (Decoded)
      return std::move(*Decoded);
    O.Error = llvm::toString(Decoded.takeError());
  }
  return failedWorker(File, O, Timeout);
}

/// The result the cache holds under \p Key, if it holds a whole one whose
/// questions the program installed now answers alike. Kept as the worker
/// protocol's bytes (FileResult.h), in base64: a JSON string holds only
/// text.
std::optional<FileResult>
cachedResult(llvm::StringRef Key, const AnalysisOptions &Options, bool Verify) {
  std::optional<FileResult> Result;
  std::shared_ptr<const ProgramSummaries> Program = programSummaries();
  ParseInputs Inputs;
  Options.Results->lookup(
      Key,
      [&](const llvm::json::Value &V) {
        std::optional<llvm::StringRef> Text = V.getAsString();
        std::vector<char> Bytes;
        if (!Text)
          return false;
        if (llvm::Error E = llvm::decodeBase64(*Text, Bytes)) {
          llvm::consumeError(std::move(E));
          return false;
        }
        llvm::Expected<FileResult> Decoded =
            decodeFileResult(llvm::StringRef(Bytes.data(), Bytes.size()));
        if (!Decoded) {
          llvm::consumeError(Decoded.takeError());
          return false;
        }
        if (Verify)
          if (std::optional<std::string> Why =
                  whyResultDiffers(*Decoded, Program.get())) {
            if (Options.OnResultOutdated)
              Options.OnResultOutdated(Decoded->File, *Why);
            return false;
          }
        Result = std::move(*Decoded);
        // Nothing was parsed or analysed this time.
        Result->ParseMicroseconds = Result->AnalysisMicroseconds = 0;
        return true;
      },
      &Inputs);
  if (Result) {
    Result->Inputs = std::move(Inputs);
    // WarningsAsErrors is no part of the key: today's decides the gate.
    regateFindings(Result->Findings, Options.Config->optionsFor(Result->File));
  }
  return Result;
}

namespace {
/// \p R as a cache entry's value: without its inputs, which the entry
/// holds beside it (cachedResult puts them back).
std::string encodedWithoutInputs(const FileResult &R) {
  FileResult Bare = R;
  Bare.Inputs.clear();
  return llvm::encodeBase64(encodeFileResult(Bare));
}
} // namespace

void keepResult(llvm::StringRef Key, const FileResult &R,
                const AnalysisOptions &Options) {
  // A crash or a time limit says nothing of the next run. Best effort: a
  // cache that cannot be written costs only time.
  if (!R.Failure)
    llvm::consumeError(
        Options.Results->store(Key, encodedWithoutInputs(R), R.Inputs));
}

std::optional<llvm::json::Object> resultEntry(llvm::StringRef Key,
                                              const FileResult &R) {
  if (R.Failure)
    return std::nullopt;
  return TranslationUnitCache::entry(Key, encodedWithoutInputs(R), R.Inputs);
}

std::optional<std::string> whyResultDiffers(const FileResult &R,
                                            const ProgramSummaries *Program) {
  if (R.Failure)
    return std::nullopt;
  llvm::Expected<ProgramQueries> Queries = ProgramQueries::parse(R.Queries);
  if (!Queries) {
    llvm::consumeError(Queries.takeError());
    return "its record of questions cannot be read";
  }
  // In words, the question's own text after it (the summaries' key).
  if (std::optional<std::string> Question = Queries->differenceIn(Program)) {
    std::optional<ProgramQuestion> Q = ProgramQuestion::parse(*Question);
    return "the program answers " + (Q ? Q->describe() + " " : "") +
           "otherwise ('" + *Question + "')";
  }
  return std::nullopt;
}

std::optional<std::string> cacheKeyOf(const std::string &File,
                                      const AnalysisOptions &Options,
                                      const TranslationUnitCache &Cache,
                                      llvm::StringRef Extra) {
  llvm::Expected<std::vector<tooling::CompileCommand>> Commands =
      Options.Database->commandsFor(File);
  if (!Commands) {
    llvm::consumeError(Commands.takeError());
    return std::nullopt;
  }
  std::vector<std::string> Line;
  for (const tooling::CompileCommand &C : *Commands) {
    Line.push_back(C.Directory);
    for (std::string &Arg : Options.Adjuster(C.CommandLine, File))
      Line.push_back(std::move(Arg));
  }
  return Cache.key(File, Line,
                   analysisConfiguration(Options.Config->optionsFor(File)),
                   Extra);
}

ReportBuilder::ReportBuilder(const std::vector<std::string> &Files,
                             const AnalysisOptions &Options)
    : Files(Files), Options(Options), Results(Files.size()) {
  R.FilesAnalysed = Files.size();
}

void ReportBuilder::add(size_t I, FileResult Result) {
  Results[I] = std::move(Result);
  if (Options.OnFileEnded)
    Options.OnFileEnded(Files[I], ++Ended, Files.size());
  // The report grows in the order of the files, not of their ends.
  for (; NextReported < Files.size() && Results[NextReported]; ++NextReported) {
    FileResult &FR = *Results[NextReported];
    dropReported(FR.Findings, Reported);
    if (Options.OnFileReported)
      Options.OnFileReported(FR);
    std::move(FR.Findings.begin(), FR.Findings.end(),
              std::back_inserter(R.Findings));
    if (FR.Failure)
      R.Failures.push_back(std::move(*FR.Failure));
    if (FR.ToleratedErrors)
      R.ToleratedErrors.push_back(std::move(*FR.ToleratedErrors));
    Results[NextReported] = FileResult(); // Free it; the slot stays set.
  }
}

unsigned workerCount(const AnalysisOptions &Options) {
  return llvm::hardware_concurrency(Options.Jobs).compute_thread_count();
}

void runUnits(const std::vector<std::string> &Files,
              llvm::function_ref<UnitWork(size_t)> Work,
              const AnalysisOptions &Options,
              llvm::function_ref<void(size_t, FileResult)> Done,
              llvm::function_ref<void()> BeforeChecks, ParkedParses *Parks,
              llvm::function_ref<void()> Rebuild) {
  auto Park = [&] { return Parks->park(Rebuild); };
  runInWorkerProcesses(
      Files.size(), workerCount(Options), Options.Timeout,
      [&](size_t I) {
        if (Parks)
          Parks->inWorker();
        return encodeFileResult(
            analyzeUnit(Files[I], Options, Work(I), BeforeChecks,
                        Parks ? llvm::function_ref<bool()>(Park) : nullptr));
      },
      [&](size_t I, WorkerOutcome O) {
        FileResult R = resultOfWorker(Files[I], std::move(O), Options.Timeout);
        if (Parks)
          Parks->workerEnded(I, R.Failure.has_value());
        Done(I, std::move(R));
      },
      [&](size_t I) {
        if (Parks)
          Parks->beforeFork(I, Work(I) != UnitWork::Summarize);
      },
      [&](size_t I) {
        if (Parks)
          Parks->afterFork(I);
      });
}

Report analyzeFiles(const std::vector<std::string> &Files,
                    const AnalysisOptions &Options) {
  ReportBuilder Report(Files, Options);
  // The files the result cache holds are reported from it; the others are
  // analysed, and their results kept.
  std::vector<std::optional<std::string>> Keys(Files.size());
  std::vector<std::string> ToAnalyse;
  std::vector<size_t> Where;
  for (size_t I = 0; I < Files.size(); ++I) {
    if (Options.Results)
      Keys[I] = cacheKeyOf(Files[I], Options, *Options.Results);
    if (Keys[I])
      if (std::optional<FileResult> Cached = cachedResult(*Keys[I], Options)) {
        Report.add(I, std::move(*Cached));
        continue;
      }
    ToAnalyse.push_back(Files[I]);
    Where.push_back(I);
  }
  runUnits(
      ToAnalyse, [](size_t) { return UnitWork::Check; }, Options,
      [&](size_t J, FileResult R) {
        size_t I = Where[J];
        if (Keys[I])
          keepResult(*Keys[I], R, Options);
        Report.add(I, std::move(R));
      });
  return Report.take();
}

} // namespace cuda_async_lint
