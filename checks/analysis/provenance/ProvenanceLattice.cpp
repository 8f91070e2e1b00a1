//===- ProvenanceLattice.cpp ----------------------------------------------===//

#include "ProvenanceLattice.h"
#include "llvm/ADT/STLExtras.h"

namespace cuda_async_lint {

/// Beyond this many possible allocations a pointer is Unknown, which also
/// bounds the lattice's height. Eight: a switch over allocation modes
/// (pageable, pinned, mapped, managed, with and without hints) gives one
/// pointer six, which its cases separate again (SwitchCorrelation.h).
static constexpr unsigned MaxOrigins = 8;

static void (*AnswerHook)(llvm::ArrayRef<unsigned>) = nullptr;

void readProgramAnswers(llvm::ArrayRef<unsigned> Numbers) {
  if (AnswerHook)
    AnswerHook(Numbers);
}

void setProgramAnswerHook(void (*Hook)(llvm::ArrayRef<unsigned>)) {
  AnswerHook = Hook;
}

void addAnswers(ProgramAnswers &Into, llvm::ArrayRef<unsigned> From) {
  for (unsigned N : From) {
    auto It = llvm::lower_bound(Into, N);
    if (It == Into.end() || *It != N)
      Into.insert(It, N);
  }
}

ProgramAnswers PointerValue::answersAsChosen() const {
  ProgramAnswers Out;
  for (unsigned N : Answers)
    addAnswers(Out, {N & ~1u});
  return Out;
}

PointerValue PointerValue::unknownForUnset(const PointerValue &V) {
  return unknown().madeFrom(V.answersAsChosen());
}

bool PointerValue::isKnownAsJoinsGrow() const {
  // Known, or Unset (which a join that grows may make known): every
  // answer counts.
  if (T != Tag::Unknown) {
    read();
    return T == Tag::Known;
  }
  // Unknown: what made it so was either an answer that only grows, which
  // the whole program's answer leaves so, or one recorded.
  llvm::SmallVector<unsigned, 4> Other;
  for (unsigned N : Answers)
    if (!(N & 1))
      Other.push_back(N);
  if (!Other.empty())
    readProgramAnswers(Other);
  return false;
}

std::string ExternalOrigin::key() const {
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Column);
}

PointerValue PointerValue::known(MemoryKind K, Origin O) {
  PointerValue V(Tag::Known);
  V.Kind = K;
  V.Origins.push_back(O);
  return V;
}

PointerValue PointerValue::join(const PointerValue &A, const PointerValue &B) {
  // Whatever the result, it was made from both sides' answers.
  auto Both = [&](PointerValue V) {
    addAnswers(V.Answers, A.Answers);
    addAnswers(V.Answers, B.Answers);
    return V;
  };
  if (A.T == Tag::Unset)
    return Both(B);
  if (B.T == Tag::Unset)
    return Both(A);
  // An Unknown without origins may point anywhere.
  if ((A.T == Tag::Unknown && A.Origins.empty()) ||
      (B.T == Tag::Unknown && B.Origins.empty()))
    return Both(unknown());
  PointerValue V = A;
  if (A.T == Tag::Unknown || B.T == Tag::Unknown || A.Kind != B.Kind)
    V.T = Tag::Unknown;
  for (Origin O : B.Origins)
    if (!llvm::is_contained(V.Origins, O))
      V.Origins.push_back(O);
  if (V.Origins.size() > MaxOrigins)
    return Both(unknown());
  llvm::sort(V.Origins, [](Origin L, Origin R) {
    return L.getOpaqueValue() < R.getOpaqueValue();
  });
  return Both(std::move(V));
}

PointerValue ProvenanceState::get(const clang::VarDecl *VD) const {
  auto It = Vars.find(VD);
  if (It != Vars.end())
    return It->second;
  return llvm::isa<clang::ParmVarDecl>(VD) ? PointerValue::unknown()
                                           : PointerValue::unset();
}

void ProvenanceState::storeElement(const clang::VarDecl *VD, PointerValue V) {
  auto It = Pointees.find(VD);
  Pointees.insert_or_assign(
      VD, PointerValue::join(
              It == Pointees.end() ? PointerValue::unset() : It->second, V));
}

const RegistrationFact *ProvenanceState::registration(const void *Key) const {
  return Registered.find(Key);
}

void ProvenanceState::join(const ProvenanceState &Other) {
  for (const auto &[VD, V] : Other.Vars) {
    PointerValue Joined = PointerValue::join(get(VD), V);
    Vars.insert_or_assign(VD, std::move(Joined));
  }
  for (auto &[VD, V] : Vars)
    if (!Other.Vars.count(VD))
      V = PointerValue::join(V, Other.get(VD));
  // A pointee nothing was stored into on one path is Unset there.
  for (const auto &[PD, V] : Other.Pointees) {
    auto It = Pointees.find(PD);
    PointerValue Joined = PointerValue::join(
        It == Pointees.end() ? PointerValue::unset() : It->second, V);
    Pointees.insert_or_assign(PD, std::move(Joined));
  }
  // An object's field stored on one path only is the field's summary.
  for (auto It = Members.begin(); It != Members.end();) {
    auto Theirs = Other.Members.find(It->first);
    if (Theirs == Other.Members.end()) {
      It = Members.erase(It);
      continue;
    }
    It->second = PointerValue::join(It->second, Theirs->second);
    ++It;
  }
  addAnswers(RegistrationAnswers, Other.RegistrationAnswers);
  Registered.join(Other.Registered);
}

} // namespace cuda_async_lint
