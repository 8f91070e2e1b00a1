//===- CommandLine.cpp - Options into one checked invocation --------------===//

#include "CommandLine.h"
#include "Config.h"
#include "OptionsAfterDashDash.h"
#include "UsageError.h"
#include "run/WholeProgram.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace llvm;

namespace cuda_async_lint {
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
cl::list<std::string> Exclude(
    "exclude", cl::value_desc("glob"),
    cl::desc("Leave out the files whose path relative to the source root "
             "matches (repeatable; '*' also matches '/'); also the "
             "configuration's CheckOptions key cuda-async-lint.Exclude"),
    cl::cat(Category));
cl::opt<bool> ParseErrorsFail(
    "parse-errors-fail", cl::init(true),
    cl::desc("A file that cannot be analysed (it does not parse, say) makes "
             "the exit status 3; with =false it is reported and the "
             "findings decide the status (default: true)"),
    cl::cat(Category));
cl::opt<bool> Quiet("quiet",
                    cl::desc("Print no summary of the run, and no progress, "
                             "on standard error"),
                    cl::cat(Category));
cl::opt<unsigned> ProgressEvery(
    "progress-every", cl::value_desc("seconds"), cl::init(30),
    cl::desc("When standard error is not a terminal (a log, a CI job), say "
             "how many files are done every <seconds> (default 30; 0: after "
             "every file)"),
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

/// cl::parser's, naming the formats there are when given one there is not
/// (LLVM's own error says only "Cannot find option named 'xml'!").
class FormatParser : public cl::parser<Format> {
public:
  using cl::parser<Format>::parser;
  bool parse(cl::Option &O, StringRef Name, StringRef Arg, Format &Value) {
    if (named(Arg))
      return cl::parser<Format>::parse(O, Name, Arg, Value);
    return O.error("unknown format '" + Arg + "'; the formats are " +
                   knownNames());
  }
  /// The format \p Arg names, as --format spells them.
  std::optional<Format> named(StringRef Arg) const {
    for (unsigned I = 0, E = getNumOptions(); I != E; ++I)
      if (getOption(I) == Arg)
        return static_cast<const cl::OptionValue<Format> &>(getOptionValue(I))
            .getValue();
    return std::nullopt;
  }
  /// "text, json, ...": every format's name.
  std::string knownNames() const {
    std::string Known;
    for (unsigned I = 0, E = getNumOptions(); I != E; ++I)
      Known += (I ? ", " : "") + getOption(I).str();
    return Known;
  }
};

cl::opt<Format, false, FormatParser> OutputFormat(
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
                                cl::desc("Write the report to <file> (-o "
                                         "<file> is the same)"),
                                cl::cat(Category));
cl::alias OutputPathShort("o", cl::aliasopt(OutputPath),
                          cl::desc("Alias for --output"), cl::cat(Category));
cl::list<std::string>
    ExtraArg("extra-arg", cl::value_desc("argument"),
             cl::desc("An argument to append to every compile command (as "
                      "clang-tidy's --extra-arg); repeatable"),
             cl::cat(Category));
cl::list<std::string> ExtraArgBefore(
    "extra-arg-before", cl::value_desc("argument"),
    cl::desc("An argument to put before every compile command's own, after "
             "the compiler (as clang-tidy's --extra-arg-before); repeatable"),
    cl::cat(Category));
cl::list<std::string> Reports(
    "report", cl::value_desc("format:file"),
    cl::desc("Also write the report in <format> (as --format names them) to "
             "<file>; repeatable. One analysis writes every report: "
             "--format=sarif -o a.sarif --report=markdown:summary.md "
             "--report=html:review.html"),
    cl::cat(Category));
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
cl::opt<uint64_t> ParkedMemory(
    "parked-memory", cl::value_desc("MiB"), cl::init(0),
    cl::desc("Memory the parses a whole-program run keeps, to check a unit "
             "again against the whole program without parsing it again, "
             "may hold (default: a quarter of the machine's, 2048 at "
             "most; 0: parse such a unit again)"),
    cl::cat(Category));
cl::opt<unsigned> ShortestParkedParse(
    "shortest-parked-parse", cl::value_desc("ms"), cl::Hidden,
    cl::desc("A parse shorter than this is not kept for a whole-program "
             "check (default: 100), for tests that must not depend on the "
             "machine's speed"),
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

/// The value of \p O if the command line gave it, else none.
std::optional<std::string> ifGiven(const cl::opt<std::string> &O) {
  return O.getNumOccurrences() ? std::optional<std::string>(O) : std::nullopt;
}

std::string environment(const char *Name) {
  return sys::Process::GetEnv(Name).value_or("");
}

/// Options that hold one value, given twice: which one was meant? Every
/// option of ours that takes a value and is not a list holds one, so a new
/// option is covered without being listed here.
std::optional<StringRef> repeatedOption() {
  std::vector<StringRef> Repeated;
  for (const auto &Entry : cl::getRegisteredOptions()) {
    const cl::Option *O = Entry.second;
    if (O->getNumOccurrences() > 1 && is_contained(O->Categories, &Category) &&
        O->getValueExpectedFlag() == cl::ValueRequired &&
        O->getNumOccurrencesFlag() == cl::Optional)
      Repeated.push_back(O->ArgStr);
  }
  if (Repeated.empty())
    return std::nullopt;
  return *llvm::min_element(Repeated);
}

/// The mode the options pick: the first of these that is given wins.
RunMode modeOf() {
  if (!MergeSummaries.empty())
    return RunMode::MergeSummaries;
  if (DumpConfig)
    return RunMode::DumpConfig;
  if (ListChecks)
    return RunMode::ListChecks;
  if (Lsp)
    return RunMode::LanguageServer;
  if (!ExportCompileCommandsDir.empty())
    return RunMode::ExportCompileCommands;
  if (!EmitSummaries.empty())
    return RunMode::EmitSummaries;
  return RunMode::Analyse;
}

/// The --report=FORMAT:FILE values, each a format --format names and a
/// file no other report of the run writes.
Error parseReports(Invocation &I) {
  const auto &Names = OutputFormat.getParser();
  std::set<std::string> Files;
  if (!OutputPath.empty())
    Files.insert(OutputPath);
  for (StringRef Value : Reports) {
    auto [Name, Path] = Value.split(':');
    if (Path.empty())
      return createStringError("--report='" + Value +
                               "': expected FORMAT:FILE, e.g. "
                               "--report=html:review.html");
    std::optional<Format> Chosen = Names.named(Name);
    if (!Chosen)
      return createStringError("--report='" + Value + "': unknown format '" +
                               Name + "'; the formats are " +
                               Names.knownNames());
    if (Path == "-")
      return createStringError("--report='" + Value +
                               "': a report of --report goes to a file; "
                               "standard output is --format's");
    if (!Files.insert(Path.str()).second)
      return createStringError("--report='" + Value + "': '" + Path +
                               "' is written by another report of the run");
    I.Reports.emplace_back(*Chosen, Path.str());
  }
  return Error::success();
}

/// The options that contradict each other or the mode, or hold a malformed
/// value; \p I is filled in.
Error checkOptions(Invocation &I) {
  if (Error E = parseReports(I))
    return E;
  if (UseBundledCuda && !CudaPath.empty())
    return createStringError("--use-bundled-cuda and --cuda-path contradict "
                             "each other: give one");
  if (UseBundledHip && !HipPath.empty())
    return createStringError("--use-bundled-hip and --hip-path contradict "
                             "each other: give one");
  switch (I.Mode) {
  case RunMode::MergeSummaries:
    if (Files.empty())
      return createStringError("--merge-summaries needs the summary stores "
                               "to merge (--emit-summaries' files)");
    for (const std::string &F : Files)
      if (sys::fs::equivalent(F, MergeSummaries))
        return createStringError("--merge-summaries='" + MergeSummaries +
                                 "' would overwrite the store '" + F + "'");
    // A merge reads stores only: the other options are not its.
    return Error::success();
  case RunMode::LanguageServer:
    if (!Files.empty())
      return createStringError("--lsp takes no files: the editor opens them");
    break;
  case RunMode::ExportCompileCommands:
    if (BuildPath.empty())
      return createStringError("--export-compile-commands needs -p "
                               "BUILD_DIR: it translates that compilation "
                               "database");
    break;
  default:
    break;
  }
  if (!ShardOption.empty()) {
    if (BuildPath.empty())
      return createStringError("--shard needs -p BUILD_DIR: it splits that "
                               "compilation database's files");
    Expected<ProgramSummaries::ShardOf> Parsed = parseShard(ShardOption);
    if (!Parsed)
      return Parsed.takeError();
    I.Shard = *Parsed;
  }
  if (!SummariesIn.empty() && !EmitSummaries.empty())
    return createStringError("--summaries and --emit-summaries contradict "
                             "each other: one reads a store, the other "
                             "writes one");
  // The modes that read a compilation database read one or the other.
  bool ReadsDatabase = I.Mode == RunMode::ExportCompileCommands ||
                       I.Mode == RunMode::EmitSummaries ||
                       I.Mode == RunMode::Analyse;
  if (ReadsDatabase && !BuildPath.empty() && I.ExtraArgs)
    return createStringError("-p and '--' cannot be combined: the compile "
                             "commands come from one or the other");
  return Error::success();
}

/// This executable's path: <prefix>/bin/cuda-async-lint.
std::string executablePath(const char *Argv0) {
  return sys::fs::getMainExecutable(Argv0,
                                    reinterpret_cast<void *>(&executablePath));
}

} // namespace

std::optional<Invocation> parseCommandLine(int Argc, const char **Argv) {
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "cuda-async-lint version " << CUDA_ASYNC_LINT_VERSION << " (LLVM "
       << CUDA_ASYNC_LINT_LLVM_VERSION << ")\n";
  });

  Invocation I;
  // Everything after '--' is the compile command for every file.
  int OwnArgc = Argc;
  for (int A = 1; A < Argc; ++A)
    if (StringRef(Argv[A]) == "--") {
      I.ExtraArgs.emplace(Argv + A + 1, Argv + Argc);
      OwnArgc = A;
      break;
    }
  if (!cl::ParseCommandLineOptions(
          OwnArgc, Argv,
          "Finds CUDA host code that misuses asynchronous transfers.\n\n"
          "  cuda-async-lint [options] FILES... [-- COMPILER_ARGS]\n"
          "  cuda-async-lint -p BUILD_DIR [FILES...]\n\n"
          "Exit status: 0 no findings, 1 findings (with WarningsAsErrors "
          "set: errors), 2 usage or input error, 3 a file could not be "
          "analysed (the others are reported).\n",
          &errs()))
    return std::nullopt;
  if (I.ExtraArgs)
    warnOwnOptionsAfterDashDash(*I.ExtraArgs, Category);
  if (std::optional<StringRef> Repeated = repeatedOption()) {
    usageError("--" + *Repeated + " given more than once");
    return std::nullopt;
  }
  I.Mode = modeOf();
  if (Error E = checkOptions(I)) {
    usageError(std::move(E));
    return std::nullopt;
  }

  I.Files.assign(Files.begin(), Files.end());
  I.BuildPath = BuildPath;
  I.Configuration.Checks = ifGiven(ChecksGlob);
  I.Configuration.WarningsAsErrors = ifGiven(WarningsAsErrors);
  I.Configuration.HeaderFilter = ifGiven(HeaderFilter);
  I.Configuration.ExcludeHeaderFilter = ifGiven(ExcludeHeaderFilter);
  if (SystemHeaders.getNumOccurrences())
    I.Configuration.SystemHeaders = SystemHeaders;
  I.Configuration.ConfigText = ConfigText;
  I.Configuration.ExtraArgs.assign(ExtraArg.begin(), ExtraArg.end());
  I.Configuration.ExtraArgsBefore.assign(ExtraArgBefore.begin(),
                                         ExtraArgBefore.end());
  I.Exclude.assign(Exclude.begin(), Exclude.end());
  I.ParseErrorsFail = ParseErrorsFail;
  I.Quiet = Quiet;
  I.ProgressEverySeconds = ProgressEvery;
  I.Configuration.ConfigFile = ConfigFile;

  I.Format = OutputFormat;
  I.OutputPath = OutputPath;
  I.Fix = Fix;
  I.ExportFixes = ExportFixes;
  I.BaselinePath = BaselinePath;
  I.RuntimeTrace = RuntimeTrace;
  I.SourceRoot = SourceRootOption;
  I.LineFilterJson = LineFilterJson;
  I.DiffRef = DiffRef;
  I.DocsUrl = DocsUrl;

  I.CudaPath = CudaPath;
  I.CudaPathEnv = environment("CUDA_PATH");
  I.UseBundledCuda = UseBundledCuda;
  I.HipPath = HipPath;
  I.RocmPathEnv = environment("ROCM_PATH");
  I.HipPathEnv = environment("HIP_PATH");
  I.UseBundledHip = UseBundledHip;

  I.ExportCompileCommandsDir = ExportCompileCommandsDir;
  I.Jobs = Jobs;
  if (ShortestParkedParse.getNumOccurrences())
    I.ShortestParkedParse = ShortestParkedParse;
  if (ParkedMemory.getNumOccurrences())
    I.ParkedMemory = ParkedMemory << 20;
  I.Timeout = std::chrono::seconds(TimeoutSeconds);
  I.WholeProgram = WholeProgram;
  I.SummariesIn = SummariesIn;
  I.EmitSummaries = EmitSummaries;
  I.MergeSummaries = MergeSummaries;
  I.CacheDir = CacheDir.empty() ? environment("CUDA_ASYNC_LINT_CACHE_DIR")
                                : std::string(CacheDir);
  I.LspDebounce = std::chrono::milliseconds(LspDebounce);
  I.Verbose = Verbose;

  I.Executable = executablePath(Argv[0]);
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  I.WorkingDirectory = std::string(Cwd);
  return I;
}

} // namespace cuda_async_lint
