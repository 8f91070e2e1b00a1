//===- NvccAcceptedErrors.cpp ---------------------------------------------===//

#include "NvccAcceptedErrors.h"
#include "cuda-async-lint/ExecutionSpace.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/AllDiagnostics.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <map>

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Whether the unit instantiates the body of \p Pattern, a function
/// template's or a class template member's definition: a specialization of
/// it, or the member of a specialization of its class, has a body. True
/// where that is not known (a member of a partial specialization).
bool hasInstantiatedBody(const FunctionDecl *Pattern) {
  const FunctionDecl *Canonical = Pattern->getCanonicalDecl();
  auto InstantiatedFrom = [&](const FunctionDecl *F) {
    const FunctionDecl *From = F->getTemplateInstantiationPattern();
    return F->hasBody() && From && From->getCanonicalDecl() == Canonical;
  };
  if (const FunctionTemplateDecl *FTD = Pattern->getDescribedFunctionTemplate())
    if (llvm::any_of(FTD->specializations(), InstantiatedFrom))
      return true;
  const auto *Method = dyn_cast<CXXMethodDecl>(Pattern);
  const CXXRecordDecl *Record = Method ? Method->getParent() : nullptr;
  const ClassTemplateDecl *Class =
      Record ? Record->getDescribedClassTemplate() : nullptr;
  if (!Class)
    return !Pattern->getDescribedFunctionTemplate();
  for (const ClassTemplateSpecializationDecl *Spec : Class->specializations())
    for (const Decl *D : Spec->decls()) {
      const auto *FD = dyn_cast<FunctionDecl>(D);
      if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
        if (llvm::any_of(FTD->specializations(), InstantiatedFrom))
          return true;
      if (FD && InstantiatedFrom(FD))
        return true;
    }
  return false;
}

/// The file ranges, in the files that hold an error, of the code clang
/// rejects where nvcc and its host compiler accept it:
///  - the definitions of device-only functions (and lambdas), which clang
///    checks as host code;
///  - in C++ and CUDA, the bodies of templates the unit never instantiates:
///    g++ and nvcc's front end check much of such a body only when it is
///    instantiated (astro-accelerate's 'aa_periodicity_strategy
///    s(m_plan);' in a class template's member that no code calls), and
///    the checks never look at a body that is not instantiated;
///  - in C++ and CUDA, a declaration of a function clang predeclares as a
///    builtin and gcc does not ('static uint64_t inline __rdtsc()', which
///    gcc declares only in <x86intrin.h>).
class ToleratedRanges : public RecursiveASTVisitor<ToleratedRanges> {
public:
  ToleratedRanges(const SourceManager &SM, const llvm::DenseSet<FileID> &Files,
                  bool HostDialect)
      : SM(SM), Files(Files), HostDialect(HostDialect) {}

  std::vector<CharSourceRange> Ranges;

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool TraverseDecl(Decl *D) {
    // Skip whole declarations of files without errors (the headers).
    if (D && !isa<TranslationUnitDecl>(D) && !isa<NamespaceDecl>(D) &&
        !isa<LinkageSpecDecl>(D) && D->getLocation().isValid() &&
        !Files.contains(SM.getFileID(SM.getExpansionLoc(D->getLocation()))))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() &&
        (isDeviceOnly(FD) ||
         (HostDialect && FD->isTemplated() && !hasInstantiatedBody(FD))))
      Ranges.push_back(SM.getExpansionRange(FD->getSourceRange()));
    // (Clang does not link a 'static' redeclaration to the builtin: the
    // name tells.)
    if (const IdentifierInfo *Name = FD->getIdentifier();
        HostDialect && !FD->isImplicit() && Name && Name->getBuiltinID())
      Ranges.push_back(SM.getExpansionRange(FD->getLocation()));
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    if (const CXXMethodDecl *Call = L->getCallOperator();
        Call && isDeviceOnly(Call))
      Ranges.push_back(SM.getExpansionRange(L->getSourceRange()));
    return true;
  }

private:
  const SourceManager &SM;
  const llvm::DenseSet<FileID> &Files;
  bool HostDialect;
};

/// The function declarations declared at the given (expansion) locations.
class DeclarationsAt : public RecursiveASTVisitor<DeclarationsAt> {
public:
  DeclarationsAt(const SourceManager &SM,
                 const llvm::DenseSet<SourceLocation> &Where)
      : SM(SM), Where(Where) {}

  std::vector<FunctionDecl *> Functions;
  std::vector<FunctionTemplateDecl *> Templates;

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (Where.contains(SM.getExpansionLoc(FD->getLocation())))
      Functions.push_back(FD);
    return true;
  }
  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *FT) {
    if (Where.contains(SM.getExpansionLoc(FT->getLocation())))
      Templates.push_back(FT);
    return true;
  }

private:
  const SourceManager &SM;
  const llvm::DenseSet<SourceLocation> &Where;
};

/// Collects the spans to blank, by file.
class Blanks {
public:
  Blanks(const SourceManager &SM) : SM(SM) {}

  /// Adds the characters of \p R (a file range); false if it is not one
  /// range of one file that is not a system header's.
  bool add(CharSourceRange R) {
    if (R.isInvalid() || !R.isCharRange())
      return false;
    auto [File, Begin] = SM.getDecomposedLoc(R.getBegin());
    auto [EndFile, End] = SM.getDecomposedLoc(R.getEnd());
    if (File != EndFile || End <= Begin || SM.isInSystemHeader(R.getBegin()))
      return false;
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
    if (!Entry)
      return false;
    BlankedFile &F = ByFile[File];
    F.ID = Entry->getUniqueID();
    F.Name = Entry->getName().str();
    F.Spans.push_back({Begin, End - Begin});
    return true;
  }

  BlankedSpans take() {
    BlankedSpans Out;
    for (auto &[File, F] : ByFile)
      Out.push_back(std::move(F));
    return Out;
  }

private:
  const SourceManager &SM;
  std::map<FileID, BlankedFile> ByFile;
};

/// The characters of the file that spell attribute \p A: the macro that
/// expands to it ('__device__', or a project's own macro of execution
/// space attributes), or the attribute's own name in
/// '__attribute__((device))'.
CharSourceRange spellingOf(const Attr *A, const SourceManager &SM,
                           const LangOptions &LO) {
  SourceLocation Loc = A->getLocation();
  if (Loc.isInvalid())
    return {};
  CharSourceRange Tokens = Loc.isMacroID()
                               ? SM.getExpansionRange(Loc)
                               : CharSourceRange::getTokenRange(Loc, Loc);
  return Lexer::makeFileCharRange(Tokens, SM, LO);
}

/// The blanks that make each declaration of a function redeclared with
/// other execution spaces (err_cuda_ovl_target: the new declaration, and
/// its notes' previous one; err_function_template_spec_no_match: an
/// explicit specialization, and its primary template) a host function:
/// nvcc merges them into a __host__ __device__ function, whose host side is
/// what the checks read.
/// A __global__ function is no such function: nvcc rejects that too.
void blankExecutionSpaces(const std::vector<const ParseDiagnostic *> &Errors,
                          ASTContext &Ctx, Blanks &Out) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseSet<SourceLocation> Where;
  for (const ParseDiagnostic *E : Errors) {
    Where.insert(SM.getExpansionLoc(E->Loc));
    for (SourceLocation Note : E->NoteLocs)
      Where.insert(SM.getExpansionLoc(Note));
  }
  DeclarationsAt Decls(SM, Where);
  Decls.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (FunctionDecl *FD : Decls.Functions) {
    if (FD->hasAttr<CUDAGlobalAttr>())
      continue;
    for (const auto *A : FD->specific_attrs<CUDADeviceAttr>())
      if (!A->isImplicit())
        Out.add(spellingOf(A, SM, Ctx.getLangOpts()));
  }
}

/// The template parameters of \p FT as its own arguments would name them
/// ('T', 'N', 'Ts...').
std::vector<std::string> parameterNames(const FunctionTemplateDecl *FT) {
  std::vector<std::string> Names;
  for (const NamedDecl *P : *FT->getTemplateParameters()) {
    std::string Name = P->getName().str();
    if (P->isTemplateParameterPack())
      Name += "...";
    Names.push_back(std::move(Name));
  }
  return Names;
}

/// \p Text ('<T, N>') split at its top-level commas, each argument with
/// its whitespace dropped.
std::vector<std::string> argumentsOf(llvm::StringRef Text) {
  std::vector<std::string> Args(1);
  int Depth = 0;
  for (char C : Text.drop_front().drop_back()) {
    if (C == '<' || C == '(' || C == '[' || C == '{')
      ++Depth;
    else if (C == '>' || C == ')' || C == ']' || C == '}')
      --Depth;
    if (C == ',' && Depth == 0)
      Args.emplace_back();
    else if (!llvm::isSpace(C))
      Args.back() += C;
  }
  return Args;
}

/// The blanks that make a primary function template defined with its own
/// parameters as template arguments ('template <typename T> void f<T>(T)',
/// err_function_template_partial_spec) the definition it is to nvcc: the
/// argument list, when it names the parameters in their order.
void blankOwnTemplateArguments(
    const std::vector<const ParseDiagnostic *> &Errors, ASTContext &Ctx,
    Blanks &Out) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseSet<SourceLocation> Where;
  for (const ParseDiagnostic *E : Errors)
    Where.insert(SM.getExpansionLoc(E->Loc));
  DeclarationsAt Decls(SM, Where);
  Decls.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const ParseDiagnostic *E : Errors) {
    if (E->Ranges.empty())
      continue;
    CharSourceRange Args =
        Lexer::makeFileCharRange(E->Ranges.front(), SM, Ctx.getLangOpts());
    if (Args.isInvalid())
      continue;
    llvm::StringRef Text = Lexer::getSourceText(Args, SM, Ctx.getLangOpts());
    if (!Text.starts_with("<") || !Text.ends_with(">"))
      continue;
    SourceLocation At = SM.getExpansionLoc(E->Loc);
    for (const FunctionTemplateDecl *FT : Decls.Templates)
      if (SM.getExpansionLoc(FT->getLocation()) == At &&
          argumentsOf(Text) == parameterNames(FT)) {
        Out.add(Args);
        break;
      }
  }
}

/// clang's name of each diagnostic, by ID.
struct NamedDiagnostic {
  unsigned ID;
  const char *Name;
};

const std::vector<NamedDiagnostic> &diagnosticNames() {
  static const std::vector<NamedDiagnostic> Names = [] {
    std::vector<NamedDiagnostic> Out = {
#define DIAG(ENUM, ...) {diag::ENUM, #ENUM},
#include "clang/Basic/DiagnosticASTKinds.inc"
#include "clang/Basic/DiagnosticAnalysisKinds.inc"
#include "clang/Basic/DiagnosticCommentKinds.inc"
#include "clang/Basic/DiagnosticCommonKinds.inc"
#include "clang/Basic/DiagnosticCrossTUKinds.inc"
#include "clang/Basic/DiagnosticDriverKinds.inc"
#include "clang/Basic/DiagnosticFrontendKinds.inc"
#include "clang/Basic/DiagnosticLexKinds.inc"
#include "clang/Basic/DiagnosticParseKinds.inc"
#include "clang/Basic/DiagnosticSemaKinds.inc"
#include "clang/Basic/DiagnosticSerializationKinds.inc"
#undef DIAG
    };
    llvm::sort(Out, [](const NamedDiagnostic &A, const NamedDiagnostic &B) {
      return A.ID < B.ID;
    });
    return Out;
  }();
  return Names;
}

const NvccAcceptedDiagnostic *acceptedDiagnostic(unsigned DiagID) {
  for (const NvccAcceptedDiagnostic &D : nvccAcceptedDiagnostics())
    if (D.ID == DiagID)
      return &D;
  return nullptr;
}

} // namespace

unsigned nvccLanguageOf(const LangOptions &LO) {
  if (LO.HIP || LO.ObjC || LO.OpenCL)
    return 0;
  if (LO.CUDA)
    return NvccLanguage::Cuda;
  return LO.CPlusPlus ? NvccLanguage::Cxx : NvccLanguage::C;
}

llvm::ArrayRef<NvccAcceptedDiagnostic> nvccAcceptedDiagnostics() {
  static const NvccAcceptedDiagnostic Accepted[] = {
#define NVCC_ACCEPTED(Name, How, Languages)                                    \
  {diag::Name, #Name, NvccAcceptance::How, Languages},
#include "NvccAcceptedDiagnostics.def"
  };
  return Accepted;
}

void downgradeNvccAccepted(DiagnosticsEngine &Diags, const LangOptions &LO) {
  unsigned Language = nvccLanguageOf(LO);
  for (const NvccAcceptedDiagnostic &D : nvccAcceptedDiagnostics())
    // Only what would be an error: a command's -Wno-error=<group> or
    // -Wno-<group> (then ignored with -w) has said otherwise already.
    if (D.How == NvccAcceptance::Downgrade && (D.Languages & Language) &&
        Diags.getDiagnosticLevel(D.ID, SourceLocation()) >=
            DiagnosticsEngine::Error)
      Diags.setSeverity(D.ID, diag::Severity::Remark, SourceLocation());
}

bool isNvccDowngraded(unsigned DiagID) {
  const NvccAcceptedDiagnostic *D = acceptedDiagnostic(DiagID);
  return D && D->How == NvccAcceptance::Downgrade;
}

bool isHostDialectError(unsigned DiagID, const LangOptions &LO) {
  const NvccAcceptedDiagnostic *D = acceptedDiagnostic(DiagID);
  return D && D->How == NvccAcceptance::AfterParse &&
         (D->Languages & nvccLanguageOf(LO));
}

bool isNvccRewritten(unsigned DiagID) {
  const NvccAcceptedDiagnostic *D = acceptedDiagnostic(DiagID);
  return D && D->How == NvccAcceptance::Rewrite;
}

bool onlyErrorsNvccAccepts(const std::vector<SourceLocation> &Locations,
                           const std::vector<unsigned> &IDs, ASTContext &Ctx) {
  assert(Locations.size() == IDs.size() && "one ID per error");
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  // A system header's redeclaration that adds or drops __device__, which
  // cannot be rewritten there (nvccRewritesFor): nvcc merges it. CCCL's
  // assert.h declares __assert_fail __host__ __device__ where nvcc compiles
  // (__NVCC__, as for nvcc's host pass) and NDEBUG is set, where clang's
  // CUDA wrapper declared it __device__.
  auto Accepted = [&](size_t I) {
    return isHostDialectError(IDs[I], LO) ||
           (IDs[I] == diag::err_cuda_ovl_target &&
            SM.isInSystemHeader(SM.getExpansionLoc(Locations[I])));
  };
  llvm::DenseSet<FileID> Files;
  for (size_t I = 0; I < Locations.size(); ++I) {
    if (Locations[I].isInvalid())
      return false;
    if (!Accepted(I))
      Files.insert(SM.getFileID(SM.getExpansionLoc(Locations[I])));
  }
  if (Files.empty())
    return true;
  ToleratedRanges Bodies(
      SM, Files, nvccLanguageOf(LO) & (NvccLanguage::Cxx | NvccLanguage::Cuda));
  Bodies.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (size_t I = 0; I < Locations.size(); ++I) {
    if (Accepted(I))
      continue;
    SourceLocation At = SM.getExpansionLoc(Locations[I]);
    if (llvm::none_of(Bodies.Ranges, [&](const CharSourceRange &R) {
          return !SM.isBeforeInTranslationUnit(At, R.getBegin()) &&
                 !SM.isBeforeInTranslationUnit(R.getEnd(), At);
        }))
      return false;
  }
  return true;
}

BlankedSpans nvccRewritesFor(const ParseErrorCollector &Errors,
                             ASTContext &Ctx) {
  unsigned Language = nvccLanguageOf(Ctx.getLangOpts());
  std::vector<const ParseDiagnostic *> Spaces, OwnArguments;
  for (const ParseDiagnostic &D : Errors.diagnostics()) {
    const NvccAcceptedDiagnostic *A = acceptedDiagnostic(D.ID);
    if (D.Downgraded || D.Loc.isInvalid() || !A ||
        A->How != NvccAcceptance::Rewrite || !(A->Languages & Language))
      continue;
    if (D.ID == diag::err_cuda_ovl_target)
      Spaces.push_back(&D);
    // A specialization set aside for its execution spaces alone: every
    // candidate's note says so.
    else if (D.ID == diag::err_function_template_spec_no_match &&
             !D.NoteIDs.empty() && llvm::all_of(D.NoteIDs, [](unsigned N) {
               return N == diag::note_cuda_ovl_candidate_target_mismatch;
             }))
      Spaces.push_back(&D);
    else if (D.ID == diag::err_function_template_partial_spec)
      OwnArguments.push_back(&D);
  }
  Blanks Out(Ctx.getSourceManager());
  if (!Spaces.empty())
    blankExecutionSpaces(Spaces, Ctx, Out);
  if (!OwnArguments.empty())
    blankOwnTemplateArguments(OwnArguments, Ctx, Out);
  return Out.take();
}

std::string diagnosticName(unsigned DiagID) {
  const std::vector<NamedDiagnostic> &Names = diagnosticNames();
  auto It = llvm::partition_point(
      Names, [&](const NamedDiagnostic &N) { return N.ID < DiagID; });
  if (It != Names.end() && It->ID == DiagID)
    return It->Name;
  return "diagnostic " + std::to_string(DiagID);
}

} // namespace cuda_async_lint
