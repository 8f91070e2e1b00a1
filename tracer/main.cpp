//===- main.cpp - cuda-async-trace: trace a CUDA program, per source line -===//
//
//   cuda-async-trace [-o trace.json] [--symbols DIR] [--races] -- ./app ...
//   cuda-async-trace --finish [-o trace.json] [--symbols DIR] RAW.json...
//
// The first runs the program with the injection library loaded through
// CUDA_INJECTION64_PATH (CUPTI's injection mechanism), then finishes the raw
// traces it left: symbolizes each call site, merges sites by line, derives
// the runtime findings, writes the trace and prints the findings. The
// second finishes raw traces recorded elsewhere (a GPU machine without
// LLVM, say). docs/runtime-trace.md documents both, and the exit codes.
//
//===----------------------------------------------------------------------===//

#include "RuntimeFindings.h"
#include "Trace.h"
#include "TraceBuilder.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace cuda_async_trace;
namespace cl = llvm::cl;

extern char **environ;

namespace {

/// Exit codes of the tracer's own failures, as env(1) and timeout(1) use
/// them; otherwise the traced program's own exit status.
enum ExitCode {
  Ok = 0,
  BadUsage = 2,
  TracerFailed = 125,
  CannotExecute = 126,
  NotFound = 127,
};

cl::OptionCategory Category("cuda-async-trace options");
cl::opt<std::string> Output("o", cl::desc("Write the trace here"),
                            cl::value_desc("file"),
                            cl::init("cuda-async-trace.json"),
                            cl::cat(Category));
cl::list<std::string>
    SymbolDirs("symbols",
               cl::desc("Look here for the program's binaries when they are "
                        "not where they ran (matched by build id)"),
               cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string>
    Injection("injection",
              cl::desc("The injection library (default: "
                       "$CUDA_ASYNC_TRACE_INJECTION, else "
                       "<prefix>/lib/libcuda-async-trace-injection.so)"),
              cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> KeepRaw("keep-raw",
                             cl::desc("Keep the raw traces in this directory"),
                             cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> Finish("finish",
                     cl::desc("The arguments are raw traces to finish, not a "
                              "program to run"),
                     cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("Print nothing but errors"),
                    cl::cat(Category));
cl::opt<std::string> Races(
    "races", cl::ValueOptional, cl::value_desc("full"),
    cl::desc("Detect the host touching the host side of an async copy "
             "still in flight (cuda-async-unsynchronized-access), by page "
             "protection of pinned and registered memory: each copy's "
             "first 256 KiB and last page; with =full, all of it (costs "
             "more on large copies)"),
    cl::cat(Category));
cl::list<std::string> Positional(cl::Positional, cl::ZeroOrMore,
                                 cl::desc("-- <program> [args...] | "
                                          "--finish <raw trace>..."));

int fail(int Code, const llvm::Twine &Message) {
  llvm::errs() << "cuda-async-trace: error: " << Message << "\n";
  return Code;
}

std::string defaultInjection(const char *Argv0) {
  if (const char *Env = std::getenv("CUDA_ASYNC_TRACE_INJECTION"))
    if (*Env)
      return Env;
  std::string Self =
      llvm::sys::fs::getMainExecutable(Argv0, (void *)&defaultInjection);
  llvm::SmallString<256> Path(llvm::sys::path::parent_path(Self));
  llvm::sys::path::append(Path, "..", "lib",
                          "libcuda-async-trace-injection.so");
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return Path.str().str();
}

/// Runs \p Args with the tracer injected; raw traces go to \p RawDir.
/// Returns the wait status, or -1 with \p Error set.
int runTraced(const std::vector<std::string> &Args,
              const std::string &InjectionPath, const std::string &RawDir,
              std::string &Error) {
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E) {
    llvm::StringRef Var(*E);
    if (Var.starts_with("CUDA_INJECTION64_PATH=") ||
        Var.starts_with("CUDA_ASYNC_TRACE_OUTPUT=") ||
        Var.starts_with("CUDA_ASYNC_TRACE_RACES="))
      continue;
    Env.push_back(Var.str());
  }
  Env.push_back("CUDA_INJECTION64_PATH=" + InjectionPath);
  llvm::SmallString<256> Pattern(RawDir);
  llvm::sys::path::append(Pattern, "raw.%p.json");
  Env.push_back("CUDA_ASYNC_TRACE_OUTPUT=" + Pattern.str().str());
  if (Races.getNumOccurrences())
    Env.push_back(std::string("CUDA_ASYNC_TRACE_RACES=") +
                  (Races == "full" ? "full" : "1"));

  std::vector<char *> Argv, Envp;
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  for (const std::string &E : Env)
    Envp.push_back(const_cast<char *>(E.c_str()));
  Envp.push_back(nullptr);

  // A pipe that closes on a successful exec tells the parent why an exec
  // failed.
  int Pipe[2];
  if (pipe2(Pipe, O_CLOEXEC) != 0) {
    Error = std::string("pipe: ") + std::strerror(errno);
    return -1;
  }
  pid_t Child = fork();
  if (Child < 0) {
    Error = std::string("fork: ") + std::strerror(errno);
    return -1;
  }
  if (Child == 0) {
    close(Pipe[0]);
    execvpe(Argv[0], Argv.data(), Envp.data());
    int Errno = errno;
    (void)!write(Pipe[1], &Errno, sizeof(Errno));
    _exit(NotFound);
  }
  close(Pipe[1]);
  // Ctrl-C reaches the program, which ends; the tracer stays to finish
  // the trace, as time(1) does.
  struct sigaction Ignore, OldInt, OldQuit;
  std::memset(&Ignore, 0, sizeof(Ignore));
  Ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &Ignore, &OldInt);
  sigaction(SIGQUIT, &Ignore, &OldQuit);
  int ExecErrno = 0;
  ssize_t N = read(Pipe[0], &ExecErrno, sizeof(ExecErrno));
  close(Pipe[0]);
  int Status = 0;
  while (waitpid(Child, &Status, 0) < 0 && errno == EINTR) {
  }
  sigaction(SIGINT, &OldInt, nullptr);
  sigaction(SIGQUIT, &OldQuit, nullptr);
  if (N == static_cast<ssize_t>(sizeof(ExecErrno))) {
    Error = "cannot run '" + Args[0] + "': " + std::strerror(ExecErrno);
    return ExecErrno == ENOENT ? -NotFound : -CannotExecute;
  }
  return Status;
}

std::string locationText(const SourceLocation &L) {
  return L.File + ":" + std::to_string(L.Line) + ":" + std::to_string(L.Column);
}

int finishAndWrite(const std::vector<std::string> &RawPaths) {
  FinishOptions Options;
  Options.SymbolDirs.assign(SymbolDirs.begin(), SymbolDirs.end());
  llvm::Expected<FinishedTrace> Finished = finishTrace(RawPaths, Options);
  if (!Finished)
    return fail(TracerFailed, llvm::toString(Finished.takeError()));
  for (const std::string &W : Finished->Warnings)
    llvm::errs() << "cuda-async-trace: warning: " << W << "\n";

  // Through a temporary file and a rename: never half a trace.
  llvm::SmallString<256> Temporary;
  int Fd = -1;
  std::string Model = (llvm::sys::path::filename(Output) + ".tmp-%%%%%%").str();
  llvm::SmallString<256> ModelPath(llvm::sys::path::parent_path(Output));
  llvm::sys::path::append(ModelPath, Model);
  if (std::error_code EC =
          llvm::sys::fs::createUniqueFile(ModelPath, Fd, Temporary))
    return fail(TracerFailed, "cannot write '" + Output + "': " + EC.message());
  {
    llvm::raw_fd_ostream OS(Fd, /*shouldClose=*/true);
    OS << llvm::formatv("{0:2}", toJson(Finished->T)) << "\n";
    OS.close();
    if (OS.has_error()) {
      std::string Message = OS.error().message();
      OS.clear_error();
      llvm::sys::fs::remove(Temporary);
      return fail(TracerFailed, "cannot write '" + Output + "': " + Message);
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temporary, Output)) {
    llvm::sys::fs::remove(Temporary);
    return fail(TracerFailed, "cannot write '" + Output + "': " + EC.message());
  }

  if (!Quiet) {
    const Trace &T = Finished->T;
    for (const RuntimeFinding &F : T.Findings) {
      llvm::errs() << locationText(F.Location) << ": warning: " << F.Message
                   << " [" << F.CheckId << ", at run time]\n";
      if (F.Related.known())
        llvm::errs() << locationText(F.Related)
                     << ": note: " << F.RelatedMessage << "\n";
    }
    std::uint64_t Calls = 0;
    for (const TraceSite &S : T.Sites)
      Calls += S.Calls;
    llvm::errs() << "cuda-async-trace: " << Calls << " calls at "
                 << T.Sites.size() << " sites, " << T.Findings.size()
                 << (T.Findings.size() == 1 ? " runtime finding"
                                            : " runtime findings")
                 << "; trace written to " << Output << "\n";
  }
  return Ok;
}

/// Whether the CUDA driver (libcuda.so.1, which the toolkit's stub libcuda.so
/// stands in for only at link time) loads; \p Why says why not.
bool cudaDriverLoads(std::string &Why) {
  void *Driver = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!Driver) {
    const char *Error = ::dlerror();
    Why = Error ? Error : "libcuda.so.1 cannot be loaded";
    return false;
  }
  ::dlclose(Driver);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "cuda-async-trace (trace format " << TraceVersion << ")\n";
  });
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "Traces the CUDA calls of a program and ties them to source lines\n",
          &llvm::errs()))
    return BadUsage;
  if (Races.getNumOccurrences() && !Races.empty() && Races != "full")
    return fail(BadUsage,
                "--races=" + Races + ": expected --races or --races=full");
  std::vector<std::string> Args(Positional.begin(), Positional.end());
  if (Args.empty())
    return fail(BadUsage, Finish ? "--finish needs raw traces"
                                 : "no program: cuda-async-trace [options] "
                                   "-- <program> [args...]");
  if (Finish)
    return finishAndWrite(Args);

  std::string InjectionPath =
      Injection.empty() ? defaultInjection(argv[0]) : Injection.getValue();
  if (!llvm::sys::fs::is_regular_file(InjectionPath))
    return fail(TracerFailed, "the injection library '" + InjectionPath +
                                  "' does not exist (build it where CUPTI "
                                  "is, or pass --injection)");
  llvm::SmallString<256> RawDir;
  if (!KeepRaw.empty()) {
    RawDir = KeepRaw;
    if (std::error_code EC = llvm::sys::fs::create_directories(RawDir))
      return fail(TracerFailed,
                  "cannot create '" + KeepRaw + "': " + EC.message());
  } else if (std::error_code EC = llvm::sys::fs::createUniqueDirectory(
                 "cuda-async-trace", RawDir)) {
    return fail(TracerFailed,
                "cannot create a temporary directory: " + EC.message());
  }

  std::string Error;
  int Status = runTraced(Args, InjectionPath, RawDir.str().str(), Error);
  if (Status < 0) {
    if (KeepRaw.empty())
      llvm::sys::fs::remove_directories(RawDir);
    return fail(-Status == NotFound ? NotFound
                : Status == -1      ? TracerFailed
                                    : CannotExecute,
                Error);
  }
  int ProgramCode = WIFEXITED(Status)     ? WEXITSTATUS(Status)
                    : WIFSIGNALED(Status) ? 128 + WTERMSIG(Status)
                                          : TracerFailed;

  std::vector<std::string> RawPaths;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(RawDir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".json"))
      RawPaths.push_back(It->path());
  std::sort(RawPaths.begin(), RawPaths.end());
  int Code = Ok;
  std::string NoDriver;
  if (RawPaths.empty())
    Code =
        fail(TracerFailed,
             "'" + Args[0] + "' " +
                 (WIFSIGNALED(Status)
                      ? "was killed by signal " +
                            std::to_string(WTERMSIG(Status)) + " and "
                      : std::string()) +
                 "left no trace: " +
                 (cudaDriverLoads(NoDriver)
                      ? "it never initialized CUDA, ended without running its "
                        "exit handlers (_exit, a kill), or the CUDA driver did "
                        "not load the injection library"
                      : "this machine has no CUDA driver (" + NoDriver +
                            "), so no program can initialize CUDA here; trace "
                            "on a machine with an NVIDIA GPU and its driver"));
  else
    Code = finishAndWrite(RawPaths);
  if (KeepRaw.empty())
    llvm::sys::fs::remove_directories(RawDir);
  if (Code != Ok)
    return Code;
  return ProgramCode;
}
