//===- Fixes.cpp ----------------------------------------------------------===//

#include "Fixes.h"
#include "support/AtomicFile.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/xxhash.h"
#include <map>

using namespace clang;

namespace cuda_async_lint {

static tooling::Replacement replacementOf(const ResolvedFix &Fix) {
  return tooling::Replacement(Fix.Begin.File, Fix.Begin.Offset,
                              Fix.End.Offset - Fix.Begin.Offset,
                              Fix.Replacement);
}

PlannedFixes planFixes(const Report &R) {
  PlannedFixes Plan;
  for (const ResolvedFinding &F : R.Findings) {
    std::vector<bool> &Joined = Plan.Joined.emplace_back();
    for (const ResolvedFix &Fix : F.Fixes) {
      Plan.ParsedHash[Fix.Begin.File] = Fix.ParsedContentHash;
      // One that overlaps a fix already planned cannot be applied with it.
      llvm::Error Conflict =
          Plan.ByFile[Fix.Begin.File].add(replacementOf(Fix));
      Joined.push_back(!Conflict);
      llvm::consumeError(std::move(Conflict));
    }
  }
  return Plan;
}

uint64_t contentHash(llvm::StringRef Content) {
  return llvm::xxh3_64bits(Content);
}

llvm::Expected<std::map<std::string, FixedFile>>
prepareFixes(const PlannedFixes &Plan) {
  std::map<std::string, FixedFile> Fixed;
  for (const auto &[File, Replacements] : Plan.ByFile) {
    if (Replacements.empty())
      continue;
    auto Buffer = llvm::MemoryBuffer::getFile(File);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(), "cannot read '%s': %s",
                                     File.c_str(),
                                     Buffer.getError().message().c_str());
    auto Hash = Plan.ParsedHash.find(File);
    if (Hash == Plan.ParsedHash.end() ||
        Hash->second != contentHash((*Buffer)->getBuffer()))
      return llvm::createStringError(
          "'%s' changed since it was analysed; no fix was applied to any file",
          File.c_str());
    llvm::Expected<std::string> Result =
        tooling::applyAllReplacements((*Buffer)->getBuffer(), Replacements);
    if (!Result)
      return Result.takeError();
    Fixed[File] = {(*Buffer)->getBuffer().str(), std::move(*Result)};
  }
  return Fixed;
}

llvm::Error writeFixedFiles(const std::map<std::string, FixedFile> &Files,
                            std::set<std::string> &Written) {
  for (const auto &[File, Content] : Files) {
    if (llvm::Error E = writeFileAtomically(File, Content.Fixed)) {
      if (Written.empty())
        return E;
      return llvm::createStringError(
          "%s; fixes were applied to %zu of %zu files",
          llvm::toString(std::move(E)).c_str(), Written.size(), Files.size());
    }
    Written.insert(File);
  }
  return llvm::Error::success();
}

FixSummary noteFixes(Report &R, const PlannedFixes &Plan,
                     const std::set<std::string> &Written) {
  FixSummary Summary;
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    ResolvedFinding &F = R.Findings[I];
    std::vector<RenderedMessage> FixNotes;
    for (size_t J = 0; J < F.Fixes.size(); ++J) {
      const ResolvedFix &Fix = F.Fixes[J];
      bool Applied = Plan.Joined[I][J] && Written.count(Fix.Begin.File);
      ++Summary.Total;
      Summary.Applied += Applied;
      RenderedMessage Note;
      Note.IsNote = true;
      Note.File = Fix.Begin.File;
      Note.Offset = Fix.Begin.Offset;
      Note.Message = Applied ? "FIX-IT applied suggested code changes"
                             : "FIX-IT unable to apply suggested code changes";
      FixNotes.push_back(std::move(Note));
    }
    // clang-tidy prints these right after the warning.
    if (!F.Messages.empty())
      F.Messages.insert(F.Messages.begin() + 1, FixNotes.begin(),
                        FixNotes.end());
  }
  return Summary;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
sourcesAsAnalysed(const std::map<std::string, FixedFile> &Files,
                  const std::set<std::string> &Written) {
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  auto Analysed = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const std::string &File : Written)
    Analysed->addFile(
        File, /*ModificationTime=*/0,
        llvm::MemoryBuffer::getMemBufferCopy(Files.at(File).Original, File));
  Overlay->pushOverlay(Analysed);
  return Overlay;
}

static tooling::DiagnosticMessage messageOf(const std::string &Message,
                                            const FileLocation &Loc) {
  tooling::DiagnosticMessage M;
  M.Message = Message;
  M.FilePath = Loc.File;
  M.FileOffset = Loc.Offset;
  return M;
}

llvm::Error checkExportablePath(llvm::StringRef Path) {
  if (llvm::json::isUTF8(Path))
    return llvm::Error::success();
  std::string Escaped;
  llvm::raw_string_ostream OS(Escaped);
  llvm::printEscapedString(Path, OS);
  return llvm::createStringError(
      "--export-fixes cannot name '%s': the path is not valid UTF-8, which "
      "YAML cannot carry, so clang-apply-replacements would not find the "
      "file (rename it, or apply the fixes with --fix)",
      Escaped.c_str());
}

llvm::Error writeExportedFixes(const Report &R, llvm::StringRef MainSourceFile,
                               llvm::raw_ostream &OS) {
  // YAML is Unicode: a path that is not UTF-8 would be written with U+FFFD
  // in place of its bytes, and the fix applied to no file.
  if (llvm::Error E = checkExportablePath(MainSourceFile))
    return E;
  for (const ResolvedFinding &F : R.Findings) {
    if (llvm::Error E = checkExportablePath(F.Loc.File))
      return E;
    for (const ResolvedNote &N : F.Notes)
      if (llvm::Error E = checkExportablePath(N.Loc.File))
        return E;
    for (const ResolvedFix &Fix : F.Fixes)
      if (llvm::Error E = checkExportablePath(Fix.Begin.File))
        return E;
    if (llvm::Error E = checkExportablePath(F.BuildDirectory))
      return E;
  }
  tooling::TranslationUnitDiagnostics TUD;
  TUD.MainSourceFile = MainSourceFile.str();
  for (const ResolvedFinding &F : R.Findings) {
    tooling::Diagnostic D;
    D.DiagnosticName = F.CheckId;
    D.DiagLevel = tooling::Diagnostic::Warning;
    D.BuildDirectory = F.BuildDirectory;
    D.Message = messageOf(F.Message, F.Loc);
    for (const ResolvedFix &Fix : F.Fixes)
      llvm::consumeError(D.Message.Fix[Fix.Begin.File].add(replacementOf(Fix)));
    for (const ResolvedNote &N : F.Notes)
      D.Notes.push_back(messageOf(N.Message, N.Loc));
    TUD.Diagnostics.push_back(std::move(D));
  }
  llvm::yaml::Output YAML(OS);
  YAML << TUD;
  return llvm::Error::success();
}

} // namespace cuda_async_lint
