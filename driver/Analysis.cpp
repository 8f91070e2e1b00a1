//===- Analysis.cpp -------------------------------------------------------===//

#include "Analysis.h"
#include "DeviceCodeErrors.h"
#include "FindingCollector.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Keeps clang's errors (the first few, rendered) and drops its warnings:
/// the tool reports its own findings, not the compiler's.
class ParseErrorCollector : public DiagnosticConsumer {
public:
  static constexpr unsigned MaxShown = 3;

  ParseErrorCollector() : OS(Text), Printer(OS, Options) {}

  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Printer.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Printer.EndSourceFile(); }

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level >= DiagnosticsEngine::Error)
      Locations.push_back(Info.hasSourceManager() ? Info.getLocation()
                                                  : SourceLocation());
    if (Level >= DiagnosticsEngine::Error) {
      ShowingNotes = ++Errors <= MaxShown;
      if (ShowingNotes)
        Printer.HandleDiagnostic(Level, Info);
    } else if (Level == DiagnosticsEngine::Note && ShowingNotes) {
      Printer.HandleDiagnostic(Level, Info);
    } else if (Level != DiagnosticsEngine::Note) {
      ShowingNotes = false;
    }
  }

  unsigned errors() const { return Errors; }
  /// Where each error is (invalid for an error without a location).
  const std::vector<SourceLocation> &locations() const { return Locations; }
  std::string text() {
    OS.flush();
    if (Errors > MaxShown)
      Text += std::to_string(Errors - MaxShown) + " more error(s) not shown\n";
    return Text;
  }

private:
  std::string Text;
  llvm::raw_string_ostream OS;
  DiagnosticOptions Options;
  TextDiagnosticPrinter Printer;
  unsigned Errors = 0;
  bool ShowingNotes = false;
  std::vector<SourceLocation> Locations;
};

/// One parse of one file: classifies its errors once the translation unit is
/// parsed (deferred CUDA diagnostics included), then runs the checks'
/// matchers only if the host code is whole: no errors, or errors in device
/// code only. A failed file's findings would be dropped anyway.
struct CheckRun {
  ast_matchers::MatchFinder &Finder;
  const ParseErrorCollector &Errors;
  /// Every error lies in device-only code (DeviceCodeErrors.h).
  bool OnlyInDeviceCode = false;

  class Consumer : public ASTConsumer {
  public:
    explicit Consumer(CheckRun &Run) : Run(Run) {}
    void HandleTranslationUnit(ASTContext &Ctx) override {
      Run.OnlyInDeviceCode = Run.Errors.errors() != 0 &&
                             onlyInDeviceCode(Run.Errors.locations(), Ctx);
      if (Run.Errors.errors() == 0 || Run.OnlyInDeviceCode)
        Run.Finder.matchAST(Ctx);
    }

  private:
    CheckRun &Run;
  };
  /// For tooling::newFrontendActionFactory.
  std::unique_ptr<ASTConsumer> newASTConsumer() {
    return std::make_unique<Consumer>(*this);
  }
};

struct FileResult {
  std::vector<ResolvedFinding> Findings;
  std::optional<FailedFile> Failure;
  std::optional<FailedFile> DeviceCodeErrors;
};

FileResult analyzeFile(const std::string &File,
                       const AnalysisOptions &Options) {
  FindingCollector Sink;
  std::vector<std::unique_ptr<Check>> Checks;
  ast_matchers::MatchFinder Finder;
  for (const CheckInfo &Info : allChecks()) {
    if (!Options.Checks.isEnabled(Info.Id))
      continue;
    Checks.push_back(Info.Create(Sink));
    Checks.back()->registerMatchers(Finder);
  }

  // A command whose directory is gone would make ClangTool abort the whole
  // process ("Cannot chdir"): it is an error for this file alone.
  std::vector<tooling::CompileCommand> Commands =
      Options.Database->getCompileCommands(File);
  for (const tooling::CompileCommand &Command : Commands)
    if (!llvm::sys::fs::is_directory(Command.Directory)) {
      FileResult Result;
      Result.Failure = FailedFile{File,
                                  "the directory of its compile command, '" +
                                      Command.Directory + "', does not exist\n",
                                  "its compile command cannot run"};
      return Result;
    }

  ParseErrorCollector Errors;
  // Each translation unit gets its own view of the real file system: its
  // compile command's directory becomes that view's working directory, not
  // the process's, which the other threads (and the report's relative
  // paths) share. LLVM's AllTUsToolExecutor does the same.
  tooling::ClangTool Tool(*Options.Database, {File},
                          std::make_shared<PCHContainerOperations>(),
                          llvm::vfs::createPhysicalFileSystem());
  Tool.setDiagnosticConsumer(&Errors);
  Tool.setPrintErrorMessage(false);
  Tool.appendArgumentsAdjuster(Options.Adjuster);
  CheckRun Run{Finder, Errors};
  int Status = Tool.run(tooling::newFrontendActionFactory(&Run).get());

  FileResult Result;
  if (Errors.errors() != 0 && Run.OnlyInDeviceCode) {
    Result.DeviceCodeErrors = FailedFile{File, Errors.text()};
  } else if (Status != 0 || Errors.errors() != 0) {
    std::string Text = Errors.text();
    if (Text.empty())
      Text = "clang could not process the file\n";
    Result.Failure = FailedFile{File, std::move(Text)};
    return Result;
  }
  Result.Findings = Sink.take();
  for (ResolvedFinding &F : Result.Findings)
    F.BuildDirectory = Commands.empty() ? "" : Commands.front().Directory;
  return Result;
}

} // namespace

Report analyzeFiles(const std::vector<std::string> &Files,
                    const AnalysisOptions &Options) {
  std::vector<FileResult> Results(Files.size());
  {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Options.Jobs));
    for (size_t I = 0; I < Files.size(); ++I)
      Pool.async([&, I] { Results[I] = analyzeFile(Files[I], Options); });
    Pool.wait();
  }
  Report R;
  R.FilesAnalysed = Files.size();
  for (FileResult &FR : Results) {
    std::move(FR.Findings.begin(), FR.Findings.end(),
              std::back_inserter(R.Findings));
    if (FR.Failure)
      R.Failures.push_back(std::move(*FR.Failure));
    if (FR.DeviceCodeErrors)
      R.DeviceCodeErrors.push_back(std::move(*FR.DeviceCodeErrors));
  }
  sortAndUnique(R.Findings);
  return R;
}

} // namespace cuda_async_lint
