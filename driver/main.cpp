//===- main.cpp - The cuda-async-lint command line tool -------------------===//
//
//   cuda-async-lint [options] FILES... [-- COMPILER_ARGS]
//   cuda-async-lint -p BUILD_DIR [FILES...]
//
//===----------------------------------------------------------------------===//

#include "Config.h"
#include "ExitCodes.h"
#include "compile/CompileCommands.h"
#include "compile/CudaToolkit.h"
#include "compile/ExportCompileCommands.h"
#include "compile/InputFiles.h"
#include "config/Configuration.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "lsp/LanguageServer.h"
#include "output/Output.h"
#include "report/Fixes.h"
#include "report/ReportSelection.h"
#include "report/RuntimeTraceJoin.h"
#include "report/SourceRoot.h"
#include "run/Analysis.h"
#include "run/Progress.h"
#include "run/SummaryStore.h"
#include "run/TranslationUnitCache.h"
#include "run/WholeProgram.h"
#include "support/AtomicFile.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include <set>
#include <sys/resource.h>
#include <unistd.h>

using namespace llvm;
using namespace cuda_async_lint;

namespace {

cl::OptionCategory Category("cuda-async-lint options");

cl::list<std::string> Files(cl::Positional, cl::desc("<file>..."),
                            cl::cat(Category));
cl::opt<std::string>
    BuildPath("p", cl::value_desc("build-dir"),
              cl::desc("Directory with compile_commands.json (CMake: "
                       "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON). With no files, "
                       "every C, C++, CUDA and HIP file it lists is analysed."),
              cl::cat(Category));
cl::opt<std::string> ChecksGlob(
    "checks", cl::value_desc("globs"),
    cl::desc("Comma-separated globs of checks to run, as in clang-tidy: "
             "'-' disables, later globs win; added to what .clang-tidy "
             "files say (default: cuda-async-*)"),
    cl::cat(Category));
cl::opt<std::string> ConfigText(
    "config", cl::value_desc("yaml"),
    cl::desc("Configuration in .clang-tidy's YAML/JSON format, e.g. "
             "'{Checks: \"-*,cuda-async-pageable-copy\"}'; no .clang-tidy "
             "file is read"),
    cl::cat(Category));
cl::opt<std::string> ConfigFile(
    "config-file", cl::value_desc("file"),
    cl::desc("Read the configuration from this file (in .clang-tidy's "
             "format); no .clang-tidy file is read"),
    cl::cat(Category));
cl::opt<std::string> WarningsAsErrors(
    "warnings-as-errors", cl::value_desc("globs"),
    cl::desc("Checks whose findings are errors, as clang-tidy's option; "
             "once set, only errors fail the run (exit 1)"),
    cl::cat(Category));
cl::opt<std::string> HeaderFilter(
    "header-filter", cl::value_desc("regex"),
    cl::desc("Report findings in headers whose names match (default: .*, "
             "as clang-tidy 22); the main file's are always reported"),
    cl::cat(Category));
cl::opt<std::string> ExcludeHeaderFilter(
    "exclude-header-filter", cl::value_desc("regex"),
    cl::desc("Do not report findings in headers whose names match"),
    cl::cat(Category));
cl::opt<bool> SystemHeaders("system-headers",
                            cl::desc("Report findings in system headers too"),
                            cl::cat(Category));
cl::opt<bool> ListChecks("list-checks",
                         cl::desc("List the enabled checks and exit"),
                         cl::cat(Category));
cl::opt<bool> DumpConfig(
    "dump-config",
    cl::desc("Print the configuration in effect for the first file (or the "
             "current directory) in .clang-tidy's format, and exit"),
    cl::cat(Category));

using Format = ReportFormat;
cl::opt<Format> OutputFormat(
    "format", cl::desc("Output format:"), cl::init(Format::Text),
    cl::values(clEnumValN(Format::Text, "text", "clang-tidy's text (default)"),
               clEnumValN(Format::Json, "json",
                          "cuda-async-lint's JSON, schema version 1"),
               clEnumValN(Format::Sarif, "sarif", "SARIF 2.1.0"),
               clEnumValN(Format::Markdown, "markdown",
                          "a pull-request comment or CI job summary"),
               clEnumValN(Format::Html, "html",
                          "one self-contained page for reviewers"),
               clEnumValN(Format::Rdjson, "rdjson",
                          "reviewdog's Diagnostic Format"),
               clEnumValN(Format::CodeClimate, "codeclimate",
                          "Code Climate, for GitLab Code Quality")),
    cl::cat(Category));
cl::opt<std::string> OutputPath("output", cl::value_desc("file"),
                                cl::desc("Write the report to <file>"),
                                cl::cat(Category));
cl::alias OutputPathShort("o", cl::aliasopt(OutputPath),
                          cl::desc("Alias for --output"));
cl::opt<bool> Fix("fix",
                  cl::desc("Apply the suggested fixes in place (as clang-tidy "
                           "--fix; overlapping fixes are skipped)"),
                  cl::cat(Category));
cl::opt<std::string>
    ExportFixes("export-fixes", cl::value_desc("file"),
                cl::desc("Write the findings and their fixes to <file> as "
                         "YAML for clang-apply-replacements"),
                cl::cat(Category));
cl::opt<std::string> BaselinePath(
    "baseline", cl::value_desc("report"),
    cl::desc("Report only findings that are not in this earlier JSON, SARIF "
             "or Code Climate report (matched by fingerprint)"),
    cl::cat(Category));
cl::opt<std::string> RuntimeTrace(
    "runtime-trace", cl::value_desc("trace"),
    cl::desc("Join the findings with a run that cuda-async-trace recorded: "
             "each is confirmed (with what it cost), exercised or not "
             "exercised, and bugs seen only at run time are reported too"),
    cl::cat(Category));
cl::opt<std::string> SourceRootOption(
    "source-root", cl::value_desc("dir"),
    cl::desc("Make report paths and fingerprints relative to <dir> "
             "(default: the git work tree holding the files, else the "
             "working directory)"),
    cl::cat(Category));
cl::opt<std::string> ExportCompileCommandsDir(
    "export-compile-commands", cl::value_desc("dir"),
    cl::desc("With -p: write <dir>/compile_commands.json with nvcc's flags "
             "translated for clang tools (clangd, clang-tidy with the "
             "plugin) and exit"),
    cl::cat(Category));
cl::opt<std::string> LineFilterJson(
    "line-filter", cl::value_desc("json"),
    cl::desc("Report only findings on these lines, in clang-tidy's syntax: "
             "[{\"name\":\"file.cu\",\"lines\":[[1,3],[5,7]]},"
             "{\"name\":\"file.h\"}]"),
    cl::cat(Category));
cl::opt<std::string> DiffRef(
    "diff", cl::value_desc("git-ref"),
    cl::desc("Report only findings on lines added or changed since <git-ref> "
             "(git diff -U0 <git-ref>)"),
    cl::cat(Category));
cl::opt<std::string> DocsUrl(
    "docs-url", cl::value_desc("url"),
    cl::desc("Where a copy of the documentation is published, for links in "
             "reports (SARIF helpUri, Markdown, rdjson, HTML): "
             "<url>/docs/checks/<id>.md (default: the check pages installed "
             "with the tool, <prefix>/share/doc/cuda-async-lint)"),
    cl::cat(Category));
cl::opt<std::string> CudaPath(
    "cuda-path", cl::value_desc("dir"),
    cl::desc("CUDA toolkit to parse against (default: $CUDA_PATH, then "
             "/usr/local/cuda, then the bundled declarations)"),
    cl::cat(Category));
cl::opt<bool> UseBundledCuda(
    "use-bundled-cuda",
    cl::desc("Parse against the bundled CUDA declarations even if a "
             "toolkit is installed"),
    cl::cat(Category));
cl::opt<std::string> HipPath(
    "hip-path", cl::value_desc("dir"),
    cl::desc("ROCm installation whose HIP headers to parse HIP against "
             "(default: $ROCM_PATH, $HIP_PATH, /opt/rocm, /usr, then the "
             "bundled declarations)"),
    cl::cat(Category));
cl::opt<bool> UseBundledHip(
    "use-bundled-hip",
    cl::desc("Parse HIP against the bundled HIP declarations even if ROCm "
             "is installed"),
    cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::value_desc("n"), cl::init(0),
                       cl::desc("Files analysed at once (default: one per "
                                "core)"),
                       cl::cat(Category));
cl::opt<unsigned> TimeoutSeconds(
    "timeout", cl::value_desc("seconds"), cl::init(300),
    cl::desc("Stop the analysis of a file that takes longer and report it as "
             "failed (exit 3); 0: no limit (default: 300)"),
    cl::cat(Category));
cl::opt<bool> WholeProgram(
    "whole-program", cl::init(true),
    cl::desc("Summarize every translation unit of the program (with -p: "
             "the whole database; else the files named together), so that "
             "each file's analysis sees the others' functions, fields and "
             "calls; each unit is parsed once for both (default: true)"),
    cl::cat(Category));
cl::opt<std::string>
    SummariesIn("summaries", cl::value_desc("file"),
                cl::desc("Draw on this summary store (--emit-summaries, "
                         "--merge-summaries) instead of summarizing first"),
                cl::cat(Category));
cl::opt<std::string> EmitSummaries(
    "emit-summaries", cl::value_desc("file"),
    cl::desc("Summarize the program's translation units (with --shard: the "
             "shard's) into this summary store, and exit"),
    cl::cat(Category));
cl::opt<std::string> MergeSummaries(
    "merge-summaries", cl::value_desc("file"),
    cl::desc("Merge the summary stores given as files (a CI matrix's "
             "shards) into this one, and exit"),
    cl::cat(Category));
cl::opt<std::string> ShardOption(
    "shard", cl::value_desc("i/n"),
    cl::desc("With -p: analyse (or, with --emit-summaries, summarize) only "
             "shard i of n of the database's files"),
    cl::cat(Category));
cl::opt<std::string> CacheDir(
    "cache-dir", cl::value_desc("dir"),
    cl::desc("Keep translation unit summaries here between runs (default: "
             "$CUDA_ASYNC_LINT_CACHE_DIR; none if unset)"),
    cl::cat(Category));
cl::opt<bool>
    Lsp("lsp",
        cl::desc("Serve the Language Server Protocol on stdin and stdout: the "
                 "findings of the files open in an editor, as you type "
                 "(docs/editors.md)"),
        cl::cat(Category));
cl::opt<unsigned> LspDebounce(
    "lsp-debounce", cl::value_desc("ms"), cl::init(500),
    cl::desc("With --lsp: how long after an edit the analysis starts, if no "
             "other edit comes (default 500)"),
    cl::cat(Category));
cl::opt<bool> Verbose("verbose",
                      cl::desc("Say which CUDA and HIP declarations and "
                               "commands are used"),
                      cl::cat(Category));

int usageError(const Twine &Message) {
  errs() << "cuda-async-lint: error: " << Message << "\n";
  return ExitUsageError;
}

/// This executable's path: <prefix>/bin/cuda-async-lint.
std::string executablePath(const char *Argv0) {
  return sys::fs::getMainExecutable(Argv0,
                                    reinterpret_cast<void *>(&usageError));
}

std::string bundledCudaDir(const char *Argv0) {
  SmallString<256> Dir(
      sys::path::parent_path(sys::path::parent_path(executablePath(Argv0))));
  sys::path::append(Dir, "share", "cuda-async-lint", "include");
  return std::string(Dir);
}

std::string currentDirectory() {
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  return std::string(Cwd);
}

/// \p File made absolute, without '.' and '..': how the run names files.
std::string absolutePath(StringRef File) {
  SmallString<256> Path(File);
  sys::fs::make_absolute(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

/// The C, C++ and CUDA files \p Database lists, as the run names them.
std::vector<std::string>
sourceFilesOf(const LintCompilationDatabase &Database) {
  std::vector<std::string> Out;
  for (const std::string &F : Database.getAllFiles())
    if (languageOfFile(F))
      Out.push_back(absolutePath(F));
  llvm::sort(Out);
  Out.erase(llvm::unique(Out), Out.end());
  return Out;
}

/// Checks one input file; an empty string means it can be analysed.
std::string checkInput(StringRef File, bool HasDatabase,
                       const std::optional<std::vector<std::string>> &Extra) {
  if (std::string Problem = whyNotReadableFile(File); !Problem.empty())
    return Problem;
  bool NamesLanguage = Extra && llvm::any_of(*Extra, [](const std::string &A) {
                         return StringRef(A).starts_with("-x");
                       });
  if (!HasDatabase && !NamesLanguage && !languageOfFile(File))
    return "'" + File.str() +
           "' is not a C, C++, CUDA or HIP source file (to analyse it "
           "anyway, name its language: -- -x cuda, -- -x hip)";
  return "";
}

} // namespace

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "cuda-async-lint version " << CUDA_ASYNC_LINT_VERSION << " (LLVM "
       << CUDA_ASYNC_LINT_LLVM_VERSION << ")\n";
  });

  // Everything after '--' is the compile command for every file.
  std::optional<std::vector<std::string>> ExtraArgs;
  int OwnArgc = argc;
  for (int I = 1; I < argc; ++I)
    if (StringRef(argv[I]) == "--") {
      ExtraArgs.emplace(argv + I + 1, argv + argc);
      OwnArgc = I;
      break;
    }
  if (!cl::ParseCommandLineOptions(
          OwnArgc, argv,
          "Finds CUDA host code that misuses asynchronous transfers.\n\n"
          "  cuda-async-lint [options] FILES... [-- COMPILER_ARGS]\n"
          "  cuda-async-lint -p BUILD_DIR [FILES...]\n\n"
          "Exit status: 0 no findings, 1 findings (with WarningsAsErrors "
          "set: errors), 2 usage or input error, 3 a file could not be "
          "analysed (the others are reported).\n",
          &errs()))
    return ExitUsageError;

  // Options that hold one value: given twice, which one was meant? Every
  // option of ours that takes a value and is not a list holds one, so a new
  // option is covered without being listed here.
  std::vector<StringRef> Repeated;
  for (const auto &Entry : cl::getRegisteredOptions()) {
    const cl::Option *O = Entry.second;
    if (O->getNumOccurrences() > 1 && is_contained(O->Categories, &Category) &&
        O->getValueExpectedFlag() == cl::ValueRequired &&
        O->getNumOccurrencesFlag() == cl::Optional)
      Repeated.push_back(O->ArgStr);
  }
  if (!Repeated.empty())
    return usageError("--" + *llvm::min_element(Repeated) +
                      " given more than once");
  if (UseBundledCuda && !CudaPath.empty())
    return usageError("--use-bundled-cuda and --cuda-path contradict each "
                      "other: give one");
  if (UseBundledHip && !HipPath.empty())
    return usageError("--use-bundled-hip and --hip-path contradict each "
                      "other: give one");

  if (!MergeSummaries.empty()) {
    if (Files.empty())
      return usageError("--merge-summaries needs the summary stores to merge "
                        "(--emit-summaries' files)");
    for (const std::string &F : Files)
      if (sys::fs::equivalent(F, MergeSummaries))
        return usageError("--merge-summaries='" + MergeSummaries +
                          "' would overwrite the store '" + F + "'");
    Expected<SummaryStore> Merged = mergeSummaryStores(
        std::vector<std::string>(Files.begin(), Files.end()));
    if (!Merged)
      return usageError(toString(Merged.takeError()));
    std::shared_ptr<ProgramSummaries> Program = Merged->Program;
    size_t Results = Merged->Results.size();
    if (Error E = writeSummaryStore(std::move(*Merged), MergeSummaries))
      return usageError(toString(std::move(E)));
    errs() << "cuda-async-lint: merged " << Program->files().size()
           << " translation unit summaries and " << Results << " results into "
           << MergeSummaries
           << (Program->holdsEveryCaller()
                   ? ""
                   : " (not every unit of a program: parameters do not take "
                     "call-site provenance)")
           << "\n";
    return ExitClean;
  }
  std::optional<ProgramSummaries::ShardOf> Shard;
  if (!ShardOption.empty()) {
    if (BuildPath.empty())
      return usageError("--shard needs -p BUILD_DIR: it splits that "
                        "compilation database's files");
    Expected<ProgramSummaries::ShardOf> Parsed = parseShard(ShardOption);
    if (!Parsed)
      return usageError(toString(Parsed.takeError()));
    Shard = *Parsed;
  }
  if (!SummariesIn.empty() && !EmitSummaries.empty())
    return usageError("--summaries and --emit-summaries contradict each "
                      "other: one reads a store, the other writes one");

  ConfigurationFlags Flags;
  auto IfGiven = [](const cl::opt<std::string> &O) {
    return O.getNumOccurrences() ? std::optional<std::string>(O) : std::nullopt;
  };
  Flags.Checks = IfGiven(ChecksGlob);
  Flags.WarningsAsErrors = IfGiven(WarningsAsErrors);
  Flags.HeaderFilter = IfGiven(HeaderFilter);
  Flags.ExcludeHeaderFilter = IfGiven(ExcludeHeaderFilter);
  if (SystemHeaders.getNumOccurrences())
    Flags.SystemHeaders = SystemHeaders;
  Flags.ConfigText = ConfigText;
  Flags.ConfigFile = ConfigFile;
  Expected<Configuration> Config = Configuration::fromFlags(Flags);
  if (!Config)
    return usageError(toString(Config.takeError()));
  if (ListChecks || DumpConfig) {
    // As clang-tidy: the first file's configuration, else the directory's.
    SmallString<256> Probe(Files.empty() ? "dummy" : StringRef(Files.front()));
    sys::fs::make_absolute(Probe);
    std::vector<std::string> Warnings;
    if (Error E = Config->checkFiles({std::string(Probe)}, Warnings))
      return usageError(toString(std::move(E)));
    clang::tidy::ClangTidyOptions Options = Config->optionsFor(Probe);
    if (DumpConfig) {
      outs() << dumpConfiguration(Options);
      return ExitClean;
    }
    outs() << "Enabled checks:\n";
    for (StringRef Id : enabledChecks(Options))
      outs() << "    " << Id << "\n";
    outs() << "\n";
    return ExitClean;
  }

  std::optional<std::string> CudaPathEnv = sys::Process::GetEnv("CUDA_PATH");
  std::string Bundled = bundledCudaDir(argv[0]);
  Expected<CudaHeaders> Cuda = chooseCudaHeaders(
      CudaPath, CudaPathEnv.value_or(""), UseBundledCuda, Bundled);
  if (!Cuda)
    return usageError(toString(Cuda.takeError()));
  if (Cuda->From == CudaHeaders::Source::Bundled &&
      !sys::fs::exists(Cuda->Path + "/cuda_runtime.h"))
    return usageError("the bundled CUDA declarations are missing from '" +
                      Cuda->Path + "'; reinstall cuda-async-lint");
  Expected<HipHeaders> Hip = chooseHipHeaders(
      {HipPath, sys::Process::GetEnv("ROCM_PATH").value_or(""),
       sys::Process::GetEnv("HIP_PATH").value_or(""), UseBundledHip, Bundled});
  if (!Hip)
    return usageError(toString(Hip.takeError()));
  if (Hip->From == HipHeaders::Source::Bundled &&
      !sys::fs::exists(Hip->Path + "/hip/hip_runtime.h"))
    return usageError("the bundled HIP declarations are missing from '" +
                      Hip->Path + "'; reinstall cuda-async-lint");
  if (Verbose) {
    errs() << "cuda-async-lint: CUDA declarations: "
           << (Cuda->From == CudaHeaders::Source::Toolkit ? "toolkit "
                                                          : "bundled ")
           << Cuda->Path << " (" << Cuda->Reason << ")\n";
    errs() << "cuda-async-lint: HIP declarations: "
           << (Hip->From == HipHeaders::Source::Rocm ? "ROCm " : "bundled ")
           << Hip->Path << " (" << Hip->Reason << ")\n";
  }
  const GpuHeaders Headers{*Cuda, *Hip};

  if (Lsp) {
    if (!Files.empty())
      return usageError("--lsp takes no files: the editor opens them");
    lsp::ServerSetup Setup;
    Setup.Config = &*Config;
    Setup.Adjuster =
        makeCommandAdjuster(Headers, CUDA_ASYNC_LINT_CLANG_RESOURCE_DIR);
    Setup.BuildPath = BuildPath;
    Setup.ExtraArgs = ExtraArgs;
    Setup.Timeout = std::chrono::seconds(TimeoutSeconds);
    Setup.Debounce = std::chrono::milliseconds(LspDebounce);
    Setup.Jobs = llvm::hardware_concurrency(Jobs).compute_thread_count();
    Setup.Docs = chooseDocsLinks(DocsUrl, CUDA_ASYNC_LINT_DOCS_URL,
                                 executablePath(argv[0]));
    Setup.Verbose = Verbose;
    return lsp::runLanguageServer(Setup, STDIN_FILENO, outs(), errs());
  }

  if (!BuildPath.empty() && ExtraArgs)
    return usageError("-p and '--' cannot be combined: the compile commands "
                      "come from one or the other");
  std::unique_ptr<LintCompilationDatabase> Database;
  if (!BuildPath.empty()) {
    auto Loaded = loadCompilationDatabase(BuildPath);
    if (!Loaded)
      return usageError(toString(Loaded.takeError()));
    Database = std::move(*Loaded);
  } else {
    Database = makeCommandLineDatabase(ExtraArgs);
  }

  std::vector<std::string> Inputs(Files.begin(), Files.end());
  if (Inputs.empty() && BuildPath.empty())
    return usageError("no input files (give FILES..., or -p BUILD_DIR to "
                      "analyse a compilation database)");
  if (Inputs.empty()) {
    Inputs = sourceFilesOf(*Database);
    if (Inputs.empty())
      return usageError("the compilation database in '" + BuildPath +
                        "' lists no C, C++, CUDA or HIP files");
  }

  // Validate every input before analysing any: a typo must not turn into a
  // green run.
  std::vector<std::string> Absolute;
  std::set<std::string> Seen;
  bool InputErrors = false;
  // Files named on the command line are checked here: a typo is a usage
  // error. A file the database lists but that is missing or unreadable (not
  // generated yet, say) fails alone, in the analysis, like any bad entry.
  bool Named = !Files.empty();
  for (const std::string &F : Inputs) {
    if (std::string Problem =
            Named ? checkInput(F, !BuildPath.empty(), ExtraArgs) : "";
        !Problem.empty()) {
      usageError(Problem);
      InputErrors = true;
      continue;
    }
    std::string Path = absolutePath(F);
    if (Named && !BuildPath.empty())
      if (auto Commands = Database->commandsFor(Path); !Commands) {
        usageError(toString(Commands.takeError()));
        InputErrors = true;
        continue;
      }
    if (Seen.insert(Path).second)
      Absolute.push_back(Path);
  }
  if (InputErrors)
    return ExitUsageError;

  // Every configuration file the files use parses, and some check is on.
  std::vector<std::string> ConfigWarnings;
  if (Error E = Config->checkFiles(Absolute, ConfigWarnings))
    return usageError(toString(std::move(E)));
  for (const std::string &W : ConfigWarnings)
    errs() << "cuda-async-lint: warning: " << W << "\n";
  if (llvm::none_of(Absolute, [&](const std::string &F) {
        return !enabledChecks(Config->optionsFor(F)).empty();
      }))
    return usageError("no checks enabled (see --checks, --config and the "
                      ".clang-tidy files; --list-checks shows them)");
  // The report follows the files' paths, not the order they were named in
  // or the database lists them in.
  llvm::sort(Absolute);

  // The outputs are checked before any analysis: writable, and never one of
  // the inputs (--output=a.cu a.cu would replace the source by the report).
  for (const auto &[Option, Path] :
       {std::pair<StringRef, StringRef>{"--output", OutputPath},
        {"--export-fixes", ExportFixes}}) {
    if (Path.empty())
      continue;
    for (const std::string &Input : Absolute)
      if (sys::fs::equivalent(Input, Path))
        return usageError(Option + "='" + Path +
                          "' would overwrite the input file '" + Input + "'");
    if (Error E = checkWritable(Path))
      return usageError(toString(std::move(E)));
  }
  if (!ExportFixes.empty())
    for (const std::string &Input : Absolute)
      if (Error E = checkExportablePath(Input))
        return usageError(toString(std::move(E)));

  if (!ExportCompileCommandsDir.empty()) {
    if (BuildPath.empty())
      return usageError("--export-compile-commands needs -p BUILD_DIR: it "
                        "translates that compilation database");
    Expected<std::string> Written = exportCompileCommands(
        *Database, BuildPath, Absolute, makeHostViewAdjuster(Headers),
        ExportCompileCommandsDir);
    if (!Written)
      return usageError(toString(Written.takeError()));
    errs() << "cuda-async-lint: wrote " << *Written << "\n";
    return ExitClean;
  }

  AnalysisOptions Options;
  Options.Database = Database.get();
  Options.Adjuster =
      makeCommandAdjuster(Headers, CUDA_ASYNC_LINT_CLANG_RESOURCE_DIR);
  Options.Config = &*Config;
  Options.Jobs = Jobs;
  if (Verbose)
    for (const std::string &F : Absolute)
      for (const auto &Command : Database->getCompileCommands(F))
        errs() << "cuda-async-lint: " << F << ": "
               << join(Options.Adjuster(Command.CommandLine, F), " ") << "\n";

  Options.Timeout = std::chrono::seconds(TimeoutSeconds);

  // Whole-program provenance: the program is the whole database, else the
  // files named together; its summaries come from a store, or from a first
  // phase over it.
  std::vector<std::string> ProgramFiles =
      BuildPath.empty() ? Absolute : sourceFilesOf(*Database);
  if (Shard) {
    std::vector<std::string> Mine = filesOfShard(ProgramFiles, *Shard);
    std::set<std::string> InShard(Mine.begin(), Mine.end());
    llvm::erase_if(Absolute,
                   [&](const std::string &F) { return !InShard.count(F); });
    if (!EmitSummaries.empty())
      ProgramFiles = std::move(Mine);
  }
  std::optional<std::string> CacheEnv =
      sys::Process::GetEnv("CUDA_ASYNC_LINT_CACHE_DIR");
  // One directory, two caches: the first phase's summaries and the
  // second's results.
  std::optional<TranslationUnitCache> Cache, ResultCache;
  if (std::string Dir = CacheDir.empty() ? CacheEnv.value_or("") : CacheDir;
      !Dir.empty()) {
    Expected<TranslationUnitCache> Opened =
        TranslationUnitCache::open(Dir, "summaries");
    if (!Opened)
      return usageError(toString(Opened.takeError()));
    Cache.emplace(std::move(*Opened));
    Expected<TranslationUnitCache> Results =
        TranslationUnitCache::open(Dir, "results");
    if (!Results)
      return usageError(toString(Results.takeError()));
    ResultCache.emplace(std::move(*Results));
  }
  unsigned SummaryFailures = 0;
  // A unit that cannot be summarized: an error where summaries are the
  // product; a warning for a unit the run does not analyse (the analysis
  // reports the others' failures itself).
  std::set<std::string> Analysed(Absolute.begin(), Absolute.end());
  auto SummaryFailed = [&](const FailedFile &F) {
    ++SummaryFailures;
    if (EmitSummaries.empty() && Analysed.count(F.File))
      return;
    errs() << "cuda-async-lint: "
           << (EmitSummaries.empty() ? "warning" : "error")
           << ": cannot summarize '" << F.File << "': " << F.Reason
           << (F.Errors.empty() ? "\n" : ":\n") << F.Errors;
  };
  std::shared_ptr<ProgramSummaries> Program;
  bool OneParse = false;
  // The results a store carries, and those an --emit-summaries run keeps
  // for it, are result cache entries: in memory where no cache directory
  // is given.
  std::optional<TranslationUnitCache> StoreResults;
  if (!ResultCache && (!SummariesIn.empty() || !EmitSummaries.empty()))
    StoreResults.emplace(TranslationUnitCache::inMemory("results"));
  if (ResultCache)
    Options.Results = &*ResultCache;
  else if (StoreResults)
    Options.Results = &*StoreResults;
  if (!SummariesIn.empty()) {
    // Read to be asked, never written: without the units' documents.
    Expected<SummaryStore> Read =
        readSummaryStore(SummariesIn, /*Documents=*/false);
    if (!Read)
      return usageError(toString(Read.takeError()));
    Program = std::move(Read->Program);
    for (llvm::json::Object &Entry : Read->Results)
      Options.Results->preload(std::move(Entry));
  } else if (!EmitSummaries.empty() ||
             (WholeProgram && ProgramFiles.size() > 1)) {
    // The whole program's summaries and the findings, from one parse per
    // unit (analyzeProgram, below).
    OneParse = true;
  }
  auto SummaryStatistics = [&] {
    if (Verbose && Cache)
      errs() << "cuda-async-lint: summaries of " << ProgramFiles.size()
             << " translation units: " << Cache->hits() << " from the cache, "
             << Cache->misses() << " made\n";
  };
  // With -p the program is the whole database, of which an --emit-summaries
  // run with --shard parses one shard.
  ProgramScope Scope;
  Scope.EveryCaller = !BuildPath.empty();
  if (!EmitSummaries.empty()) {
    Scope.Shard = Shard;
    Scope.Resolve = false;
  }
  // "[n/N] parsed file" as each unit of a one-parse run ends.
  std::optional<Progress> Parsing;
  auto UnitParsed = [&](StringRef File, size_t Ended, size_t Total) {
    if (!Parsing)
      Parsing.emplace(Total, errs(), Progress::wanted(), "parsed");
    Parsing->fileEnded(File, Ended);
  };
  if (OneParse && !EmitSummaries.empty()) {
    ProgramAnalysis Made =
        analyzeProgram(ProgramFiles, Absolute, Scope, Options,
                       Cache ? &*Cache : nullptr, SummaryFailed, UnitParsed);
    SummaryStatistics();
    if (!Made.Program)
      return ExitParseError;
    if (Error E = writeSummaryStore({Made.Program, std::move(Made.Results)},
                                    EmitSummaries))
      return usageError(toString(std::move(E)));
    return SummaryFailures ? ExitParseError : ExitClean;
  }
  // A database of one translation unit is a whole program too: nothing to
  // summarize, but its calls are every call of its functions.
  if (!Program && WholeProgram && !BuildPath.empty() && !Shard &&
      ProgramFiles.size() == 1)
    if (Expected<std::shared_ptr<ProgramSummaries>> Alone =
            ProgramSummaries::fromUnits({}, /*EveryCaller=*/true))
      Program = std::move(*Alone);
  // Summaries of its own win over a SummaryStore option.
  if (Program)
    setProgramSummaries(Program, /*FromDriver=*/true);
  Expected<std::string> SourceRoot =
      chooseSourceRoot(SourceRootOption, Absolute, currentDirectory());
  if (!SourceRoot)
    return usageError(toString(SourceRoot.takeError()));
  OutputContext Ctx{*SourceRoot, CUDA_ASYNC_LINT_VERSION,
                    chooseDocsLinks(DocsUrl, CUDA_ASYNC_LINT_DOCS_URL,
                                    executablePath(argv[0]))};
  Expected<ReportSelection> Reported =
      ReportSelection::fromOptions(Ctx.SourceRoot, LineFilterJson, DiffRef,
                                   BaselinePath, currentDirectory());
  if (!Reported)
    return usageError(toString(Reported.takeError()));
  ReportSelection &Selected = *Reported;
  std::optional<RuntimeTraceJoin> Join;
  if (!RuntimeTrace.empty()) {
    Expected<cuda_async_trace::Trace> Traced =
        cuda_async_trace::readTrace(RuntimeTrace);
    if (!Traced)
      return usageError("--runtime-trace: " + toString(Traced.takeError()));
    Join.emplace(std::move(*Traced), RuntimeTrace, Ctx.SourceRoot);
  }
  bool Colors = OutputFormat == Format::Text && OutputPath.empty() &&
                sys::Process::StandardOutHasColors();
  // Text on stdout is written as each file's findings are final, in the
  // order of the files; every other report is written once complete (and
  // --fix adds its notes to the findings first).
  bool StreamText = OutputFormat == Format::Text && OutputPath.empty() && !Fix;
  if (StreamText)
    outs().enable_colors(Colors);
  Progress Shown(Absolute.size(), errs(), Progress::wanted());
  // A store's (or the cache's) result the whole program answers otherwise:
  // --verbose says why its unit is parsed again, as a one-parse run does.
  if (Verbose)
    Options.OnResultOutdated = [](const std::string &File,
                                  const std::string &Why) {
      errs() << "cuda-async-lint: " << File << ": analysed again: " << Why
             << "\n";
    };
  Options.OnFileEnded = [&](const std::string &File, size_t Ended, size_t) {
    Shown.fileEnded(File, Ended);
  };
  std::set<std::string> ConfigWarned;
  Options.OnFileReported = [&](FileResult &FR) {
    // Before the selection: a finding the baseline drops still covers its
    // runtime counterpart.
    if (Join)
      Join->annotate(FR.Findings);
    Selected.apply(FR);
    for (const std::string &W : FR.ConfigurationWarnings)
      if (ConfigWarned.insert(W).second)
        errs() << "cuda-async-lint: warning: " << W << "\n";
    if (const std::optional<FailedFile> &Failure = FR.Failure)
      errs() << "cuda-async-lint: error: cannot analyse '" << Failure->File
             << "': " << Failure->Reason
             << (Failure->Errors.empty() ? "\n" : ":\n") << Failure->Errors;
    if (const std::optional<FailedFile> &Device = FR.DeviceCodeErrors)
      errs() << "cuda-async-lint: warning: '" << Device->File
             << "': " << DeviceCodeErrorsMessage << ":\n"
             << Device->Errors;
    // What the analysis costs beside the parse, measured in the worker:
    // scripts/benchmark.py reads it per file.
    if (Verbose && FR.ParseMicroseconds)
      errs() << formatv("cuda-async-lint: {0}: parsed in {1:f1} ms, analysed "
                        "in {2:f1} ms ({3:f1}% of the parse)\n",
                        FR.File, FR.ParseMicroseconds / 1e3,
                        FR.AnalysisMicroseconds / 1e3,
                        100.0 * FR.AnalysisMicroseconds / FR.ParseMicroseconds);
    if (StreamText) {
      writeText(FR.Findings, outs(), Colors);
      outs().flush();
    }
  };
  std::optional<ProgramAnalysis> Whole;
  if (OneParse)
    Whole =
        analyzeProgram(ProgramFiles, Absolute, Scope, Options,
                       Cache ? &*Cache : nullptr, SummaryFailed, UnitParsed);
  Report R =
      Whole ? std::move(Whole->Findings) : analyzeFiles(Absolute, Options);
  if (Whole) {
    SummaryStatistics();
    if (Verbose) {
      for (const auto &[File, Why] : Whole->AnalysedAgain)
        errs() << "cuda-async-lint: " << File << ": analysed again: " << Why
               << "\n";
      errs() << "cuda-async-lint: " << Whole->Parsed
             << " translation units parsed; the findings of "
             << Whole->AnalysedAgain.size()
             << " analysed again (the whole program answered their "
                "questions otherwise)\n";
      // What scripts/benchmark.py --program reads: the resolution step is
      // this process's, as is the memory of the summaries.
      struct rusage Usage;
      ::getrusage(RUSAGE_SELF, &Usage);
      errs() << formatv("cuda-async-lint: resolution: {0:f1} ms; this "
                        "process's peak memory: {1:f1} MiB\n",
                        Whole->ResolutionMicroseconds / 1e3,
                        Usage.ru_maxrss / 1024.0);
    }
  }
  if (Join) {
    size_t Elsewhere = 0;
    FileResult AtRunTime;
    AtRunTime.Findings = Join->uncovered(Absolute, Elsewhere);
    Selected.apply(AtRunTime);
    if (StreamText) {
      writeText(AtRunTime.Findings, outs(), Colors);
      outs().flush();
    }
    R.Findings.insert(R.Findings.end(), AtRunTime.Findings.begin(),
                      AtRunTime.Findings.end());
    if (Elsewhere)
      errs() << "cuda-async-lint: " << Elsewhere << " runtime finding"
             << (Elsewhere == 1 ? "" : "s") << " of '" << RuntimeTrace
             << "' in files not analysed here\n";
  }
  if (Verbose && Options.Results) {
    size_t FromCache =
        Whole ? Whole->ResultsFromCache : Options.Results->hits();
    size_t FromStore = Whole ? 0 : Options.Results->preloadedHits();
    errs() << "cuda-async-lint: results of " << Absolute.size()
           << " translation units: ";
    if (!SummariesIn.empty())
      errs() << FromStore << " from the summary store, ";
    if (ResultCache)
      errs() << FromCache - FromStore << " from the cache, ";
    errs() << Absolute.size() - FromCache << " analysed\n";
  }
  if (Selected.hasBaseline())
    errs() << "cuda-async-lint: " << Selected.baselined() << " finding"
           << (Selected.baselined() == 1 ? "" : "s") << " in the baseline '"
           << BaselinePath << "' not reported\n";

  if (!ExportFixes.empty()) {
    std::string YAML;
    raw_string_ostream YAMLStream(YAML);
    if (Error E = writeExportedFixes(
            R, Absolute.size() == 1 ? Absolute.front() : "", YAMLStream))
      return usageError(toString(std::move(E)));
    if (Error E = writeFileAtomically(ExportFixes, YAML))
      return usageError(toString(std::move(E)));
  }
  // --fix writes the files first, so that the report's notes say what was
  // written; the report then quotes the files as they were analysed.
  FixSummary Fixed;
  std::optional<Error> FixFailed;
  if (Fix) {
    PlannedFixes Plan = planFixes(R);
    std::set<std::string> Written;
    Expected<std::map<std::string, FixedFile>> Prepared = prepareFixes(Plan);
    if (!Prepared)
      FixFailed = Prepared.takeError();
    else if (Error E = writeFixedFiles(*Prepared, Written))
      FixFailed = std::move(E);
    if (Prepared)
      Ctx.Sources = sourcesAsAnalysed(*Prepared, Written);
    Fixed = noteFixes(R, Plan, Written);
  }

  // The report is complete in memory before it is written: a failed write
  // never leaves half of it behind.
  std::string Rendered;
  raw_string_ostream OS(Rendered);
  if (Colors)
    OS.enable_colors(true);
  if (!StreamText)
    writeReport(OutputFormat, R, Ctx, OS, Colors);
  OS.flush();
  if (!OutputPath.empty()) {
    if (Error E = writeFileAtomically(OutputPath, Rendered))
      return usageError(toString(std::move(E)));
  } else {
    outs() << Rendered;
    outs().flush();
    if (outs().has_error()) {
      std::string Reason = outs().error().message();
      outs().clear_error();
      return usageError("cannot write standard output: " + Reason);
    }
  }
  if (FixFailed)
    return usageError(toString(std::move(*FixFailed)));
  if (Fix)
    errs() << "cuda-async-lint: applied " << Fixed.Applied << " of "
           << Fixed.Total << " suggested fixes\n";

  if (!R.Failures.empty())
    return ExitParseError;
  // Every finding fails the gate unless WarningsAsErrors is set, which then
  // decides (ResolvedFinding::FailsGate).
  return llvm::any_of(R.Findings,
                      [](const ResolvedFinding &F) { return F.FailsGate; })
             ? ExitFindings
             : ExitClean;
}
