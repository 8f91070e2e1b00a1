//===- OptionsAfterDashDash.cpp -------------------------------------------===//

#include "OptionsAfterDashDash.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cuda_async_lint {

namespace {

/// The report file extensions: '-o x.sarif' after '--' was meant for us;
/// '-o x.o' is the compile command's own.
bool isReportFile(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  return is_contained({".json", ".sarif", ".html", ".htm", ".md", ".txt",
                       ".xml", ".yaml", ".yml"},
                      Ext.lower());
}

} // namespace

void warnOwnOptionsAfterDashDash(ArrayRef<std::string> Args,
                                 const cl::OptionCategory &Ours) {
  auto &Registered = cl::getRegisteredOptions();
  for (size_t A = 0; A < Args.size(); ++A) {
    StringRef Arg = Args[A];
    if (!Arg.starts_with("-") || Arg == "-")
      continue;
    bool Long = Arg.starts_with("--");
    StringRef Name = Arg.drop_while([](char C) { return C == '-'; });
    Name = Name.split('=').first;
    auto It = Registered.find(Name);
    if (It == Registered.end() || !is_contained(It->second->Categories, &Ours))
      continue;
    bool Meant;
    if (Name == "o" || Name == "output")
      Meant = isReportFile(Arg.contains('=')     ? Arg.split('=').second
                           : A + 1 < Args.size() ? StringRef(Args[A + 1])
                                                 : StringRef());
    else if (Name == "p")
      Meant =
          Long || (A + 1 < Args.size() && sys::fs::is_directory(Args[A + 1]));
    else
      // '-format=json' as well as '--format=json': clang has no such
      // long option.
      Meant = Long || Name.size() > 1 || Name == "j";
    if (!Meant)
      continue;
    std::string Shown = Arg.str();
    // The value that follows a short option without '=' is its own.
    if (!Arg.contains('=') &&
        It->second->getValueExpectedFlag() == cl::ValueRequired &&
        A + 1 < Args.size())
      Shown += " " + Args[A + 1];
    WithColor::warning(errs(), "cuda-async-lint")
        << "'" << Shown << "' after '--' is given to the compiler, not read "
        << "as this tool's option; put it before '--'\n";
  }
}

} // namespace cuda_async_lint
