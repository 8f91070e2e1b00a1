//===- Configuration.cpp --------------------------------------------------===//

#include "Configuration.h"
#include "Exclusions.h"
#include "TidyCheckAdaptor.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/GlobList.h"
#include "cuda-async-lint/CheckNames.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include <set>

using namespace clang::tidy;

namespace cuda_async_lint {

namespace {

/// A check name in --checks without '*' must name one of our checks:
/// clang-tidy would run nothing for a typo, and the gate would pass.
llvm::Error checkNames(llvm::StringRef Globs) {
  llvm::SmallVector<llvm::StringRef, 8> Items;
  Globs.split(Items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Item : Items) {
    Item = Item.trim();
    Item.consume_front("-");
    if (Item.empty() || Item.contains('*') || Item.starts_with("clang-"))
      continue;
    if (!findCheck(Item))
      return llvm::createStringError(
          "unknown check '%s' in --checks; did you mean '%s'? (see "
          "--list-checks)",
          Item.str().c_str(), nearestCheck(Item).str().c_str());
  }
  // A glob spelt as ours that matches none of our checks
  // ('cuda-async-pagable-*').
  for (const UnknownCheckName &U : unknownCheckNames(Globs))
    return llvm::createStringError("%s (see --list-checks)",
                                   describe(U, "--checks").c_str());
  return llvm::Error::success();
}

/// The line and column of \p Offset in \p Text, from 1.
std::pair<unsigned, unsigned> lineAndColumn(llvm::StringRef Text,
                                            size_t Offset) {
  llvm::StringRef Before = Text.take_front(Offset);
  size_t LineStart = Before.rfind('\n');
  unsigned Column =
      LineStart == llvm::StringRef::npos ? Offset + 1 : Offset - LineStart;
  return {static_cast<unsigned>(Before.count('\n')) + 1, Column};
}

/// The options of the checks \p Options enables, as the checks store them
/// (their values in \p Options, else their defaults).
ClangTidyOptions::OptionMap
storedCheckOptions(const ClangTidyOptions &Options) {
  clang::DiagnosticOptions DiagOpts;
  clang::IgnoringDiagConsumer Ignore;
  clang::DiagnosticsEngine Engine(clang::DiagnosticIDs::create(), DiagOpts,
                                  &Ignore, /*ShouldOwnClient=*/false);
  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(
      ClangTidyGlobalOptions(), Options));
  Context.setDiagnosticsEngine(std::make_unique<clang::DiagnosticOptions>(),
                               &Engine);
  Context.setCurrentFile("dummy");
  ClangTidyOptions::OptionMap Stored;
  for (const CheckInfo &Info : allChecks())
    if (Context.isCheckEnabled(Info.Id))
      TidyCheckAdaptor(Info, Info.Id, &Context).storeOptions(Stored);
  return Stored;
}

/// Every option of ours a CheckOptions key may name: each check's, and the
/// driver's own.
const std::set<std::string> &ourOptionKeys() {
  static const std::set<std::string> Keys = [] {
    std::set<std::string> Out{ExcludeOption};
    ClangTidyOptions Every = ClangTidyOptions::getDefaults();
    Every.Checks = "-*,cuda-async-*";
    for (const auto &Entry : storedCheckOptions(Every))
      Out.insert(Entry.getKey().str());
    return Out;
  }();
  return Keys;
}

/// The option of ours nearest to \p Key, among those of its check.
std::string nearestOption(llvm::StringRef Key) {
  llvm::StringRef Check = Key.split('.').first;
  std::string Best;
  unsigned BestDistance = ~0u;
  for (const std::string &Known : ourOptionKeys())
    if (llvm::StringRef(Known).split('.').first == Check)
      if (unsigned D = Key.edit_distance(Known); D < BestDistance) {
        Best = Known;
        BestDistance = D;
      }
  return Best;
}

/// A name spelt as one of our checks that names none, in the Checks or
/// WarningsAsErrors of \p Options or a CheckOptions key
/// ('cuda-async-pagable-copy.MinCopySize'), as an error at its place in
/// \p Text, the configuration \p Source holds: a typo there silently
/// disables a check or the gate on it (CheckNames.h).
llvm::Error checkOurNames(const ClangTidyOptions &Options,
                          llvm::StringRef Source, llvm::StringRef Text) {
  struct Bad {
    std::string Name, Message;
    llvm::StringRef Key;
  };
  std::vector<Bad> Found;
  auto Lists = {std::make_pair(llvm::StringRef("Checks"), Options.Checks),
                std::make_pair(llvm::StringRef("WarningsAsErrors"),
                               Options.WarningsAsErrors)};
  for (const auto &[Key, List] : Lists)
    if (List)
      for (const UnknownCheckName &U : unknownCheckNames(*List))
        Found.push_back({U.Name, describe(U, Key), Key});
  for (const auto &Entry : Options.CheckOptions) {
    llvm::StringRef Check = Entry.getKey().split('.').first;
    if (!Check.starts_with("cuda-async-") || !Entry.getKey().contains('.'))
      continue;
    // cuda-async-lint.* are the driver's own (cuda-async-lint.Exclude).
    if (Check != "cuda-async-lint" && !findCheck(Check)) {
      Found.push_back({Check.str(),
                       "unknown check '" + Check.str() + "' in the option '" +
                           Entry.getKey().str() + "'; did you mean '" +
                           nearestCheck(Check).str() + "'?",
                       "CheckOptions"});
      continue;
    }
    // An option the check does not have is ignored: a misspelt one
    // ('MinCopySise') silently keeps the default.
    if (!ourOptionKeys().count(Entry.getKey().str())) {
      std::string Nearest = nearestOption(Entry.getKey());
      Found.push_back(
          {Entry.getKey().str(),
           "unknown option '" + Entry.getKey().str() + "' in CheckOptions" +
               (Nearest.empty() ? std::string()
                                : "; did you mean '" + Nearest + "'?"),
           "CheckOptions"});
    }
  }
  if (Found.empty())
    return llvm::Error::success();
  // Each where it is written (after its key if the text has one), in the
  // file's order.
  std::vector<std::pair<size_t, std::string>> Placed;
  for (const Bad &B : Found) {
    size_t From = Text.find(B.Key);
    size_t At = Text.find(B.Name, From == llvm::StringRef::npos ? 0 : From);
    if (At == llvm::StringRef::npos)
      At = Text.find(B.Name);
    if (At == llvm::StringRef::npos) {
      Placed.push_back({Text.size(), Source.str() + ": " + B.Message});
      continue;
    }
    auto [Line, Column] = lineAndColumn(Text, At);
    Placed.push_back({At, (Source + ":" + llvm::Twine(Line) + ":" +
                           llvm::Twine(Column) + ": " + B.Message)
                              .str()});
  }
  llvm::sort(Placed);
  std::string Out;
  for (const auto &[At, Message] : Placed)
    Out += (Out.empty() ? "" : "\n") + Message;
  return llvm::createStringError("%s", Out.c_str());
}

/// Parses configuration text, as a .clang-tidy file or --config holds it,
/// keeping clang's rendering of each complaint (file:line:col).
llvm::Expected<ClangTidyOptions> parse(llvm::StringRef Text,
                                       llvm::StringRef Name,
                                       std::vector<std::string> *Warnings) {
  std::string Errors;
  auto OnDiag = [&](const llvm::SMDiagnostic &D) {
    std::string Rendered;
    llvm::raw_string_ostream OS(Rendered);
    D.print(nullptr, OS, /*ShowColors=*/false);
    if (D.getKind() == llvm::SourceMgr::DK_Error)
      Errors += Rendered;
    else if (Warnings)
      Warnings->push_back(llvm::StringRef(Rendered).rtrim().str());
  };
  llvm::ErrorOr<ClangTidyOptions> Parsed =
      parseConfigurationWithDiags(llvm::MemoryBufferRef(Text, Name), OnDiag);
  if (!Parsed)
    return llvm::createStringError(
        "invalid configuration in '%s':\n%s", Name.str().c_str(),
        Errors.empty() ? Parsed.getError().message().c_str()
                       : llvm::StringRef(Errors).rtrim().str().c_str());
  return *Parsed;
}

/// Whether the glob list \p Globs names one of our checks: a glob other than
/// a bare '*' (or '-*') that matches one of our ids.
bool namesOurChecks(llvm::StringRef Globs) {
  GlobList List(Globs);
  for (const auto &Item : List.getItems()) {
    if (Item.Text.find_first_not_of('*') == llvm::StringRef::npos)
      continue;
    for (const CheckInfo &Info : allChecks())
      if (Item.Regex.match(Info.Id))
        return true;
  }
  return false;
}

/// A configuration file's options as the driver reads them (see
/// Configuration.h): a Checks or WarningsAsErrors list that names none of
/// our checks was written for clang-tidy's checks and is left out.
ClangTidyOptions forOurChecks(ClangTidyOptions Options) {
  if (Options.Checks && !namesOurChecks(*Options.Checks))
    Options.Checks.reset();
  if (Options.WarningsAsErrors && !namesOurChecks(*Options.WarningsAsErrors))
    Options.WarningsAsErrors.reset();
  return Options;
}

/// clang-tidy's own search, merge and inheritance of .clang-tidy files, each
/// file read through forOurChecks. (FileOptionsProvider's constructor that
/// takes handlers leaves its file system unset in LLVM 22: the handlers are
/// set here instead.)
class ProjectFileOptionsProvider : public FileOptionsProvider {
public:
  ProjectFileOptionsProvider(ClangTidyGlobalOptions Global,
                             ClangTidyOptions Defaults,
                             ClangTidyOptions Overrides)
      : FileOptionsProvider(std::move(Global), std::move(Defaults),
                            std::move(Overrides)) {
    ConfigHandlers = {
        {".clang-tidy",
         [](llvm::MemoryBufferRef Text) -> llvm::ErrorOr<ClangTidyOptions> {
           llvm::ErrorOr<ClangTidyOptions> Parsed = parseConfiguration(Text);
           if (!Parsed)
             return Parsed;
           return forOurChecks(std::move(*Parsed));
         }}};
  }
};

} // namespace

llvm::Expected<Configuration>
Configuration::fromFlags(const ConfigurationFlags &F) {
  if (!F.ConfigText.empty() && !F.ConfigFile.empty())
    return llvm::createStringError(
        "--config and --config-file contradict each other: give one");
  Configuration C;
  C.Defaults = ClangTidyOptions::getDefaults();
  // Every check of ours, unless the configuration says otherwise; nothing
  // else runs in this driver whatever a .clang-tidy file enables.
  C.Defaults.Checks = "-*,cuda-async-*";
  C.Defaults.WarningsAsErrors = "";
  C.Defaults.User = llvm::sys::Process::GetEnv("USER");
  if (F.Checks) {
    if (llvm::Error E = checkNames(*F.Checks))
      return std::move(E);
    C.Overrides.Checks = *F.Checks;
  }
  if (F.WarningsAsErrors)
    for (const UnknownCheckName &U : unknownCheckNames(*F.WarningsAsErrors))
      return llvm::createStringError(
          "%s (see --list-checks)",
          describe(U, "--warnings-as-errors").c_str());
  C.Overrides.WarningsAsErrors = F.WarningsAsErrors;
  C.Overrides.HeaderFilterRegex = F.HeaderFilter;
  C.Overrides.ExcludeHeaderFilterRegex = F.ExcludeHeaderFilter;
  C.Overrides.SystemHeaders = F.SystemHeaders;
  // Merged after every file's own (ClangTidyOptions::merge appends them).
  if (!F.ExtraArgs.empty())
    C.Overrides.ExtraArgs = F.ExtraArgs;
  if (!F.ExtraArgsBefore.empty())
    C.Overrides.ExtraArgsBefore = F.ExtraArgsBefore;

  std::string Text = F.ConfigText, Name = "--config";
  if (!F.ConfigFile.empty()) {
    auto Buffer = llvm::MemoryBuffer::getFile(F.ConfigFile, /*IsText=*/true);
    if (!Buffer)
      return llvm::createStringError("cannot read --config-file '%s': %s",
                                     F.ConfigFile.c_str(),
                                     Buffer.getError().message().c_str());
    Text = (*Buffer)->getBuffer().str();
    Name = F.ConfigFile;
  }
  if (!F.ConfigText.empty() || !F.ConfigFile.empty()) {
    auto Parsed = parse(Text, Name, nullptr);
    if (!Parsed)
      return Parsed.takeError();
    if (llvm::Error E = checkOurNames(*Parsed, Name, Text))
      return std::move(E);
    // --config is written for this tool; --config-file names a .clang-tidy
    // file, perhaps the project's own, read as those are.
    C.Given = F.ConfigFile.empty() ? std::move(*Parsed)
                                   : forOurChecks(std::move(*Parsed));
  }
  return C;
}

std::unique_ptr<ClangTidyOptionsProvider> Configuration::makeProvider() const {
  if (Given)
    return std::make_unique<ConfigOptionsProvider>(Global, Defaults, *Given,
                                                   Overrides);
  return std::make_unique<ProjectFileOptionsProvider>(Global, Defaults,
                                                      Overrides);
}

ClangTidyOptions Configuration::optionsFor(llvm::StringRef File) const {
  // One provider for the driver's own questions: it caches each
  // directory's configuration, as clang-tidy's does across files.
  if (!Shared)
    Shared = makeProvider();
  return Shared->getOptions(File);
}

llvm::Error
Configuration::checkFiles(const std::vector<std::string> &Files,
                          std::vector<std::string> &Warnings) const {
  if (Given)
    return llvm::Error::success();
  std::set<std::string> Done;
  for (const std::string &File : Files) {
    // As FileOptionsBaseProvider: the nearest .clang-tidy, then its
    // parents' while each inherits its parent's configuration.
    for (llvm::StringRef Dir = llvm::sys::path::parent_path(File); !Dir.empty();
         Dir = llvm::sys::path::parent_path(Dir)) {
      llvm::SmallString<256> Path(Dir);
      llvm::sys::path::append(Path, ".clang-tidy");
      if (!llvm::sys::fs::is_regular_file(Path))
        continue;
      if (!Done.insert(std::string(Path)).second)
        break;
      auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
      if (!Buffer)
        return llvm::createStringError("cannot read '%s': %s", Path.c_str(),
                                       Buffer.getError().message().c_str());
      auto Parsed = parse((*Buffer)->getBuffer(), Path, &Warnings);
      if (!Parsed)
        return Parsed.takeError();
      if (llvm::Error E = checkOurNames(*Parsed, Path, (*Buffer)->getBuffer()))
        return E;
      if (!Parsed->InheritParentConfig.value_or(false))
        break;
    }
  }
  return llvm::Error::success();
}

std::vector<llvm::StringRef> enabledChecks(const ClangTidyOptions &Options) {
  GlobList Enabled(Options.Checks.value_or(""));
  std::vector<llvm::StringRef> Ids;
  for (const CheckInfo &Info : allChecks())
    if (Enabled.contains(Info.Id))
      Ids.push_back(Info.Id);
  return Ids;
}

/// \p List without the globs that occur again later in it: merging the
/// defaults' '-*,cuda-async-*' with a file's 'cuda-async-*' repeats it. The
/// last glob that matches a name decides, so a later copy decides whatever
/// the earlier one would have.
static std::string withoutRepeatedGlobs(llvm::StringRef List) {
  llvm::SmallVector<llvm::StringRef, 8> Globs;
  for (llvm::StringRef Line : llvm::split(List, '\n'))
    for (llvm::StringRef Glob : llvm::split(Line, ','))
      if (!Glob.trim().empty())
        Globs.push_back(Glob.trim());
  std::string Out;
  for (size_t I = 0; I < Globs.size(); ++I) {
    if (llvm::is_contained(llvm::ArrayRef(Globs).drop_front(I + 1), Globs[I]))
      continue;
    if (!Out.empty())
      Out += ',';
    Out += Globs[I];
  }
  return Out;
}

std::string dumpConfiguration(const ClangTidyOptions &Options) {
  // As clang-tidy --dump-config: the options, with every enabled check's
  // options in effect (defaults included), written by the checks.
  ClangTidyOptions Effective = Options;
  for (std::optional<std::string> *List :
       {&Effective.Checks, &Effective.WarningsAsErrors})
    if (*List)
      **List = withoutRepeatedGlobs(**List);
  for (const auto &Entry : storedCheckOptions(Options))
    Effective.CheckOptions.try_emplace(Entry.getKey(), Entry.getValue());
  return configurationAsText(Effective);
}

std::string analysisConfiguration(const ClangTidyOptions &Options) {
  ClangTidyOptions Analysis;
  std::string Checks = "-*";
  for (llvm::StringRef Id : enabledChecks(Options))
    Checks += ("," + Id).str();
  Analysis.Checks = Checks;
  Analysis.HeaderFilterRegex = Options.HeaderFilterRegex;
  Analysis.ExcludeHeaderFilterRegex = Options.ExcludeHeaderFilterRegex;
  Analysis.SystemHeaders = Options.SystemHeaders;
  Analysis.ExtraArgs = Options.ExtraArgs;
  Analysis.ExtraArgsBefore = Options.ExtraArgsBefore;
  // Our checks' options, and global ones (no check's prefix: SummaryStore)
  // that a check may read; --exclude's option chooses files, not results.
  ClangTidyOptions Effective = Options;
  for (const auto &Entry : storedCheckOptions(Options))
    Effective.CheckOptions.try_emplace(Entry.getKey(), Entry.getValue());
  for (const auto &Entry : Effective.CheckOptions) {
    llvm::StringRef Key = Entry.getKey();
    if ((Key.starts_with("cuda-async-") || !Key.contains('.')) &&
        Key != ExcludeOption)
      Analysis.CheckOptions.try_emplace(Key, Entry.getValue());
  }
  return configurationAsText(Analysis);
}

bool warningsAsErrorsDecideGate(const ClangTidyOptions &Options) {
  // '' and ',' (two empty lists merged) name no check.
  llvm::SmallVector<llvm::StringRef, 4> Globs;
  llvm::StringRef(Options.WarningsAsErrors.value_or(""))
      .split(Globs, ',', -1, /*KeepEmpty=*/false);
  return llvm::any_of(Globs,
                      [](llvm::StringRef G) { return !G.trim().empty(); });
}

} // namespace cuda_async_lint
