//===- ProgramView.cpp - One unit's view of the program -------------------===//

#include "ProgramSummaries.h"
#include "Summarize.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

namespace cuda_async_lint {

ProgramView::ProgramView(const clang::SourceManager &SM)
    : SM(SM), Program(programSummaries()), Record(programQueryRecord()) {
  if (Program || Record)
    ThisUnit = unitFile(SM);
}

template <class T>
T ProgramView::noted(T Answer, ProgramQuestion::Kind What, llvm::StringRef Key,
                     unsigned Index) const {
  if (Record) {
    std::string Text = ProgramQuestion{What, Key.str(), Index, ""}.text();
    if (!Record->asked(Text))
      Record->record(std::move(Text), describeAnswer(Answer));
  }
  return Answer;
}

std::optional<unsigned> ProgramView::answerNumber(const clang::FunctionDecl *FD,
                                                  ProgramQuestion::Kind What,
                                                  bool Now,
                                                  llvm::StringRef Shape,
                                                  unsigned Index) {
  const Function *F = Record ? lookup(FD) : nullptr;
  if (!F)
    return std::nullopt;
  ProgramQuestion Q{What, F->Usr, Index, Shape.str()};
  std::string Text = Q.text();
  std::string Answer = cuda_async_lint::answerAbout(F->Facts, Q);
  if (Now && !Record->asked(Text))
    Record->record(Text, Answer);
  return Record->pending(Text, std::move(Answer), /*Grows=*/false);
}

PointerValue ProgramView::taken(PointerValue Answer, ProgramQuestion::Kind What,
                                bool Grows, llvm::StringRef Key,
                                unsigned Index) const {
  if (!Record)
    return Answer;
  std::string Text = ProgramQuestion{What, Key.str(), Index, ""}.text();
  return Answer.madeFrom(
      {Record->pending(Text, describeAnswer(Answer), Grows)});
}

const ProgramView::Function *
ProgramView::lookup(const clang::FunctionDecl *FD) {
  if ((!Program && !Record) || !FD->isExternallyVisible() ||
      SM.isInSystemHeader(FD->getLocation()))
    return nullptr;
  const clang::FunctionDecl *Canonical = FD->getCanonicalDecl();
  auto [It, New] = Functions.try_emplace(Canonical);
  if (New) {
    It->second.Usr = usrOf(Canonical);
    if (Program && !It->second.Usr.empty())
      It->second.Facts = Program->function(It->second.Usr, ThisUnit);
  }
  return It->second.Usr.empty() ? nullptr : &It->second;
}

const FunctionFacts *ProgramView::facts(const clang::FunctionDecl *FD) {
  const Function *F = lookup(FD);
  return F ? F->Facts : nullptr;
}

void ProgramView::note(const clang::FunctionDecl *FD,
                       ProgramQuestion::Kind What, llvm::StringRef Shape,
                       unsigned Index) {
  (void)answerNumber(FD, What, /*Now=*/true, Shape, Index);
}

PointerValue ProgramView::field(llvm::StringRef Usr) const {
  auto [It, New] = Fields.try_emplace(Usr, PointerValue::unset());
  if (New)
    It->second =
        taken(Program ? Program->field(Usr, ThisUnit) : PointerValue::unset(),
              ProgramQuestion::Kind::Field, /*Grows=*/true, Usr);
  return It->second;
}

PointerValue ProgramView::argument(llvm::StringRef Usr, unsigned Index) const {
  auto [It, New] =
      Arguments.try_emplace({Usr.str(), Index}, PointerValue::unset());
  if (New)
    It->second =
        taken(Program ? Program->argument(Usr, Index, ThisUnit)
                      : PointerValue::unset(),
              ProgramQuestion::Kind::Argument, /*Grows=*/true, Usr, Index);
  return It->second;
}

PointerValue ProgramView::parameter(llvm::StringRef Usr, unsigned Index) const {
  auto [It, New] =
      Parameters.try_emplace({Usr.str(), Index}, PointerValue::unknown());
  if (New)
    It->second =
        taken(Program ? Program->parameter(Usr, Index, ThisUnit)
                      : PointerValue::unknown(),
              ProgramQuestion::Kind::Parameter, /*Grows=*/false, Usr, Index);
  return It->second;
}

PointerValue ProgramView::stored(llvm::StringRef Usr) const {
  auto [It, New] = Stored.try_emplace(Usr, PointerValue::unknown());
  if (New)
    It->second = taken(Program ? Program->stored(Usr, ThisUnit)
                               : PointerValue::unknown(),
                       ProgramQuestion::Kind::Stored, /*Grows=*/false, Usr);
  return It->second;
}

bool ProgramView::notOnlyCalled(llvm::StringRef Usr) const {
  auto [It, New] = NotOnlyCalled.try_emplace(Usr, false);
  if (New)
    It->second = noted(Program && Program->notOnlyCalled(Usr, ThisUnit),
                       ProgramQuestion::Kind::NotOnlyCalled, Usr);
  return It->second;
}

bool ProgramView::registered(llvm::StringRef OriginKey) const {
  auto [It, New] = Registered.try_emplace(OriginKey, false);
  if (New)
    It->second = noted(Program && Program->registered(OriginKey, ThisUnit),
                       ProgramQuestion::Kind::Registered, OriginKey);
  return It->second;
}

bool ProgramView::registersContainerStorage() const {
  if (!RegistersContainers)
    RegistersContainers =
        noted(Program && Program->registersContainerStorage(ThisUnit),
              ProgramQuestion::Kind::RegistersContainers);
  return *RegistersContainers;
}

} // namespace cuda_async_lint
