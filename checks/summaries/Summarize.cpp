//===- Summarize.cpp ------------------------------------------------------===//

#include "Summarize.h"
#include "../analysis/pending/ParameterHostUses.h"
#include "../analysis/pending/PendingTransfers.h"
#include "../analysis/provenance/ProvenanceAnalysis.h"
#include "../api/CudaApiCatalog.h"
#include "../api/ReleaseSite.h"
#include "ProgramSummaries.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;
using llvm::json::Array;
using llvm::json::Object;

namespace cuda_async_lint {

namespace {

std::string realPath(const SourceManager &SM, FileID FID) {
  OptionalFileEntryRef Ref = SM.getFileEntryRefForID(FID);
  return Ref ? realPathOf(*Ref) : "";
}

llvm::json::Value originJson(const ExternalOrigin &E) {
  Object O{{"file", E.File},
           {"line", E.Line},
           {"column", E.Column},
           {"note", E.Note}};
  if (!E.Releaser.empty())
    O["releaser"] = E.Releaser;
  return O;
}

llvm::json::Value valueJson(const PointerValue &V, const SourceManager &SM) {
  if (!V.isKnown())
    return "unknown";
  Array Origins;
  for (Origin O : V.origins())
    Origins.push_back(originJson(externalOrigin(O, V.kind(), SM)));
  return Object{{"kind", memoryKindName(V.kind())},
                {"origins", std::move(Origins)}};
}

/// The user's function definitions other units may call.
class Definitions : public RecursiveASTVisitor<Definitions> {
public:
  explicit Definitions(const SourceManager &SM) : SM(SM) {}
  // An explicit instantiation ('template int load<double>(...);') is the
  // one definition other units call; implicit ones are in every unit.
  bool shouldVisitTemplateInstantiations() const { return true; }
  // System headers define nothing of the user's: not walked.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) &&
        SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && FD->isExternallyVisible() &&
        !FD->isInlined() && !FD->isDependentContext() &&
        FD->getTemplateSpecializationKind() != TSK_ImplicitInstantiation &&
        !FD->hasAttr<CUDAGlobalAttr>() &&
        !SM.isInSystemHeader(FD->getLocation()) && !lookupApi(FD))
      Found.push_back(FD);
    return true;
  }
  std::vector<const FunctionDecl *> Found;

private:
  const SourceManager &SM;
};

/// A declaration every unit names alike: external linkage, user code.
bool sharedAcrossUnits(const NamedDecl *D, const SourceManager &SM) {
  return D->isExternallyVisible() && !SM.isInSystemHeader(D->getLocation());
}

} // namespace

std::string realPathOf(FileEntryRef File) {
  llvm::StringRef Real = File.getFileEntry().tryGetRealPathName();
  if (!Real.empty())
    return Real.str();
  llvm::SmallString<256> Path(File.getName());
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

std::string unitFile(const SourceManager &SM) {
  return realPath(SM, SM.getMainFileID());
}

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Usr;
  if (index::generateUSRForDecl(D, Usr))
    return "";
  return std::string(Usr);
}

/// Where \p O is, without its note.
static ExternalOrigin place(Origin O, const SourceManager &SM) {
  if (const auto *E = O.dyn_cast<const ExternalOrigin *>())
    return *E;
  ExternalOrigin E;
  SourceLocation Loc = SM.getExpansionLoc(originLocation(O));
  E.File = realPath(SM, SM.getFileID(Loc));
  E.Line = SM.getExpansionLineNumber(Loc);
  E.Column = SM.getExpansionColumnNumber(Loc);
  return E;
}

std::string originKey(Origin O, const SourceManager &SM) {
  return place(O, SM).key();
}

ExternalOrigin externalOrigin(Origin O, MemoryKind K, const SourceManager &SM) {
  if (const auto *E = O.dyn_cast<const ExternalOrigin *>())
    return *E;
  ExternalOrigin E = place(O, SM);
  E.Note = describeOrigin(O, K).Message;
  if (const auto *S = O.dyn_cast<const Stmt *>())
    E.Releaser = matchingReleaser(S);
  return E;
}

bool takesProgramCallSites(const FunctionDecl *FD) {
  if (!FD)
    return false;
  FD = FD->getCanonicalDecl();
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  auto Exported = [](const FunctionDecl *D) {
    for (const FunctionDecl *R : D->redecls()) {
      if (R->hasAttr<DLLExportAttr>() || R->hasAttr<UsedAttr>())
        return true;
      if (const auto *V = R->getAttr<VisibilityAttr>())
        if (V->getVisibility() == VisibilityAttr::Default)
          return true;
    }
    return false;
  };
  return FD->isExternallyVisible() && !FD->isTemplated() &&
         !FD->isTemplateInstantiation() && !(MD && MD->isVirtual()) &&
         !FD->isVariadic() && !FD->isMain() && !Exported(FD) &&
         !FD->getASTContext().getSourceManager().isInSystemHeader(
             FD->getLocation()) &&
         !lookupApi(FD) &&
         llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
           return P->getType()->isPointerType();
         });
}

Object summarizeTranslationUnit(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::shared_ptr<ProvenanceAnalysis> Provenance =
      ProvenanceAnalysis::forTranslationUnit(Ctx);
  Provenance->summarizeForProgram();
  SyncSummaries Syncs(Ctx);
  ParameterHostUses HostUses(Ctx);

  Definitions Defs(SM);
  Defs.TraverseDecl(Ctx.getTranslationUnitDecl());
  Array Functions;
  for (const FunctionDecl *FD : Defs.Found) {
    std::string Usr = usrOf(FD);
    if (Usr.empty())
      continue;
    const FunctionSummary &S = Provenance->function(FD).summary();
    Array Outs, Registers, Exit;
    for (const std::optional<PointerValue> &Out : S.OutParams)
      Outs.push_back(Out ? valueJson(*Out, SM) : llvm::json::Value(nullptr));
    for (const std::optional<Registration> &R : S.RegistersParam)
      Registers.push_back(R ? llvm::json::Value(registrationName(*R))
                            : llvm::json::Value(nullptr));
    // Registration at exit, of what the function returns or stores out.
    auto ExportRegistration = [&](const PointerValue &V) {
      if (V.isKnown())
        for (Origin O : V.origins())
          if (auto It = S.ExitRegistration.find(O.getOpaqueValue());
              It != S.ExitRegistration.end())
            Exit.push_back(Object{
                {"value", valueJson(PointerValue::known(V.kind(), O), SM)},
                {"registration", registrationName(It->second.R)}});
    };
    ExportRegistration(S.Returns);
    for (const std::optional<PointerValue> &Out : S.OutParams)
      if (Out)
        ExportRegistration(*Out);
    Object F{{"usr", Usr},
             {"name", FD->getQualifiedNameAsString()},
             {"returns", valueJson(S.Returns, SM)},
             {"outParams", std::move(Outs)},
             {"registersParam", std::move(Registers)},
             {"takesCallSites",
              takesProgramCallSites(FD) && !branchesOnFlagParameter(FD)}};
    if (!Exit.empty())
      F["exitRegistration"] = std::move(Exit);
    // What it does on the host to what its pointer parameters point to.
    Array Touches, Writes;
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      if (!FD->getParamDecl(I)->getType()->isPointerType())
        continue;
      HostUse Use = HostUses.bodyUse(FD, I);
      if (Use != HostUse::None)
        Touches.push_back(I);
      if (Use == HostUse::Write)
        Writes.push_back(I);
    }
    if (!Touches.empty())
      F["hostTouchesParams"] = std::move(Touches);
    if (!Writes.empty())
      F["hostWritesParams"] = std::move(Writes);
    if (const SyncSummary *Sync = Syncs.summary(FD)) {
      if (Sync->Device)
        F["syncsDevice"] = true;
      if (!Sync->StreamParams.empty())
        F["syncsStreamParams"] = Array(Sync->StreamParams);
      if (!Sync->EventParams.empty())
        F["syncsEventParams"] = Array(Sync->EventParams);
    }
    Functions.push_back(std::move(F));
  }

  const ProvenanceAnalysis::Sites &Sites = Provenance->sites();
  // Fields of types every unit shares; in the order of their USRs. (The
  // globals the analysis summarizes are those no other unit can name.)
  std::map<std::string, Object> FieldsByUsr;
  auto AddField = [&](const ValueDecl *D) {
    const auto *Record = dyn_cast<RecordDecl>(D->getDeclContext());
    if (!isa<FieldDecl>(D) || !Record || !sharedAcrossUnits(Record, SM))
      return;
    std::string Usr = usrOf(D);
    if (Usr.empty() || FieldsByUsr.count(Usr))
      return;
    bool Escaped = false, Incomplete = false;
    PointerValue Stores = Provenance->localStores(D, Escaped, Incomplete);
    Object F{{"usr", Usr},
             {"name", D->getQualifiedNameAsString()},
             {"escaped", Escaped}};
    if (Stores.tag() != PointerValue::Tag::Unset)
      F["stores"] = valueJson(Stores, SM);
    FieldsByUsr.emplace(Usr, std::move(F));
  };
  for (const auto &[D, Storers] : Sites.Stores)
    AddField(D);
  for (const ValueDecl *D : Sites.Escaped)
    AddField(D);
  Array Fields;
  for (auto &[Usr, F] : FieldsByUsr)
    Fields.push_back(std::move(F));

  // What each call of an external function passes, in source order.
  std::vector<std::pair<const CallExpr *, Object>> CallList;
  for (const auto &[Callee, Calls] : Sites.CallsTo) {
    if (!takesProgramCallSites(Callee))
      continue;
    std::string Usr = usrOf(Callee);
    if (Usr.empty())
      continue;
    for (const auto &[Caller, Call] : Calls) {
      Array Args;
      const FunctionProvenance &CallerFlow = Provenance->function(Caller);
      for (unsigned I = 0; I < Call->getNumArgs(); ++I)
        Args.push_back(valueJson(CallerFlow.argumentAt(Call, I), SM));
      CallList.push_back(
          {Call, Object{{"usr", Usr}, {"arguments", std::move(Args)}}});
    }
  }
  llvm::sort(CallList, [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(A.first->getBeginLoc(),
                                        B.first->getBeginLoc());
  });
  Array Calls;
  for (auto &[Call, C] : CallList)
    Calls.push_back(std::move(C));

  std::set<std::string> NotOnlyCalled;
  for (const FunctionDecl *FD : Sites.NotOnlyCalled)
    if (sharedAcrossUnits(FD, SM))
      if (std::string Usr = usrOf(FD); !Usr.empty())
        NotOnlyCalled.insert(Usr);
  std::set<std::string> Registered;
  for (Origin O : Provenance->registeredOrigins())
    Registered.insert(originKey(O, SM));

  return Object{
      {"file", unitFile(SM)},
      {"functions", std::move(Functions)},
      {"fields", std::move(Fields)},
      {"calls", std::move(Calls)},
      {"notOnlyCalled", Array(NotOnlyCalled)},
      {"registered", Array(Registered)},
      {"registersContainerStorage", Provenance->registersContainerStorage()}};
}

} // namespace cuda_async_lint
