//===- ParameterHostUses.cpp ----------------------------------------------===//

#include "ParameterHostUses.h"
#include "HostAccess.h"
#include "analysis/code/StmtWalk.h"
#include "analysis/code/UnitShared.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Verbs that name what they do to their argument: a function called
/// 'fillBatch' or 'read_block' writes the buffer it is given.
constexpr llvm::StringLiteral WriteVerbs[] = {
    "clear",   "copy",   "decode", "fill",    "gather", "generate", "get",
    "init",    "load",   "memcpy", "memset",  "pack",   "populate", "prepare",
    "produce", "rand",   "read",   "receive", "recv",   "reset",    "scatter",
    "store",   "unpack", "update", "write",   "zero"};

/// Whether \p Name begins with \p Verb as a word: 'fillBatch', 'fill_batch',
/// 'Fill', 'fill'; not 'filling' or 'fillet'.
bool beginsWithVerb(llvm::StringRef Name, llvm::StringRef Verb) {
  if (!Name.starts_with_insensitive(Verb))
    return false;
  if (Name.size() == Verb.size())
    return true;
  char Next = Name[Verb.size()];
  return Next == '_' || llvm::isDigit(Next) || llvm::isUpper(Next);
}

bool isDataPointer(QualType T) {
  return T->isPointerType() && !T->getPointeeType()->isFunctionType();
}

/// Whether \p E is a pointer into what \p P points to: 'p', 'p + n',
/// '&p[i]', under casts.
bool pointsIntoParameter(const Expr *E, const ParmVarDecl *P) {
  if (!E)
    return false;
  E = E->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl() == P;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isAdditiveOp() && (pointsIntoParameter(BO->getLHS(), P) ||
                                  pointsIntoParameter(BO->getRHS(), P));
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      if (const auto *ASE =
              dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
        return pointsIntoParameter(ASE->getBase(), P);
  return false;
}

/// Whether \p S stores a pointer into what \p P points to where the
/// accesses do not follow it ('q = p', 's.buf = p', 'float *q = p' then
/// '++q', a lambda's capture): a write through such a copy may be one.
bool storesParameter(const Stmt *S, const ParmVarDecl *P,
                     const HostAccessFinder &Accesses) {
  auto Into = [&](const Expr *E) { return pointsIntoParameter(E, P); };
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->getOpcode() == BO_Assign && Into(BO->getRHS());
  if (const auto *Init = dyn_cast<InitListExpr>(S))
    return llvm::any_of(Init->inits(), Into);
  if (const auto *Capture = dyn_cast<LambdaExpr>(S))
    return llvm::any_of(Capture->capture_inits(), Into);
  // A local initialized from it: followed only as an alias (never written).
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (Into(VD->getInit()) && !Accesses.aliasOf(VD))
          return true;
  return false;
}

} // namespace

bool declaredAsWritten(const FunctionDecl *FD, unsigned Param) {
  if (Param >= FD->getNumParams())
    return false;
  QualType T = FD->getParamDecl(Param)->getType();
  if (!isDataPointer(T) || T->getPointeeType().isConstQualified())
    return false;
  // A const-correct signature: the inputs are const, the rest are outputs.
  if (llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
        return isDataPointer(P->getType()) &&
               P->getType()->getPointeeType().isConstQualified();
      }))
    return true;
  const IdentifierInfo *Name = FD->getIdentifier();
  return Name && llvm::any_of(WriteVerbs, [&](llvm::StringRef Verb) {
           return beginsWithVerb(Name->getName(), Verb);
         });
}

ParameterHostUses::ParameterHostUses(ASTContext &Ctx)
    : Program(Ctx.getSourceManager()) {}

std::shared_ptr<ParameterHostUses>
ParameterHostUses::forTranslationUnit(ASTContext &Ctx) {
  return unitShared<ParameterHostUses>(Ctx);
}

HostUse ParameterHostUses::use(const FunctionDecl *FD, unsigned Param,
                               const Expr **Where) {
  if (Where)
    *Where = nullptr;
  const FunctionDecl *Def = nullptr;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  // An override may replace a virtual function's body.
  bool Virtual = MD && MD->isVirtual() && !MD->hasAttr<FinalAttr>() &&
                 !MD->getParent()->hasAttr<FinalAttr>();
  if (FD->hasBody(Def) && Def && !Virtual)
    return bodyUse(Def, Param, Where);
  if (!Virtual)
    if (const FunctionFacts *Facts = Program.facts(FD)) {
      Program.note(FD, ProgramQuestion::Kind::HostUse, "", Param);
      if (Facts->HostWritesParams.count(Param))
        return HostUse::Write;
      return Facts->HostTouchesParams.count(Param) ? HostUse::Read
                                                   : HostUse::None;
    }
  // Nothing is known of it, or another unit may define it: an answer of
  // the program's later would change this one.
  Program.note(FD, ProgramQuestion::Kind::HostUse, "", Param);
  return declaredAsWritten(FD, Param) ? HostUse::Write : HostUse::Read;
}

HostUse ParameterHostUses::bodyUse(const FunctionDecl *Def, unsigned Param,
                                   const Expr **Where) {
  if (Where)
    *Where = nullptr;
  if (Param >= Def->getNumParams() || !Def->getBody())
    return HostUse::Read;
  auto Key = std::make_pair(Def, Param);
  if (auto It = Done.find(Key); It != Done.end()) {
    if (Where)
      *Where = It->second.Where;
    return It->second.Use;
  }
  // A recursive call: its own writes are this body's, found here.
  if (!InProgress.insert(Def).second)
    return HostUse::None;
  const ParmVarDecl *P = Def->getParamDecl(Param);
  HostAccessFinder Accesses(Def);
  BodyUse Found;
  forEachStmt(Def->getBody(), [&](const Stmt *S) {
    if (Found.Use == HostUse::Write)
      return;
    if (storesParameter(S, P, Accesses)) {
      // Stored where the analysis does not follow: no one access to show.
      Found = {HostUse::Write, nullptr};
      return;
    }
    llvm::SmallVector<HostAccess, 4> Accessed;
    Accesses.accessesOf(CFGStmt(const_cast<Stmt *>(S)), Accessed);
    for (HostAccess &A : Accessed) {
      if (A.Buffer.Base != P || A.Buffer.Loads != 0 || A.Buffer.Object ||
          !Accesses.resolve(A))
        continue;
      HostUse Use = A.Kind != AccessKind::Read ? HostUse::Write : HostUse::Read;
      if (Use > Found.Use || (Use == Found.Use && !Found.Where))
        Found = {Use, A.Spelled};
    }
  });
  InProgress.erase(Def);
  Done[Key] = Found;
  if (Where)
    *Where = Found.Where;
  return Found.Use;
}

bool isAtomicBuiltin(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getBuiltinID() || !FD->getIdentifier())
    return false;
  StringRef Name = FD->getName();
  return Name.starts_with("__sync_") || Name.starts_with("__atomic_") ||
         Name.starts_with("__c11_atomic_");
}

bool ParameterHostUses::updatesAtomically(const FunctionDecl *FD,
                                          unsigned Param) {
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || !Def->getBody() || Param >= Def->getNumParams())
    return false;
  auto [It, New] = Atomics.try_emplace({Def, Param}, false);
  if (!New)
    return It->second;
  const ParmVarDecl *P = Def->getParamDecl(Param);
  HostAccessFinder Accesses(Def);
  bool Found = false;
  forEachStmt(Def->getBody(), [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (Found || !isAtomicBuiltin(Call))
      return;
    for (const Expr *Arg : Call->arguments())
      if (std::optional<BufferRef> B = Accesses.bufferOf(Arg))
        Found |= B->Base == P && B->Loads == 0 && !B->Object;
  });
  It->second = Found;
  return Found;
}

} // namespace cuda_async_lint
