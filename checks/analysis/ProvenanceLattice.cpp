//===- ProvenanceLattice.cpp ----------------------------------------------===//

#include "ProvenanceLattice.h"
#include "llvm/ADT/STLExtras.h"

namespace cuda_async_lint {

/// Beyond this many possible allocations a pointer is Unknown, which also
/// bounds the lattice's height.
static constexpr unsigned MaxOrigins = 4;

PointerValue PointerValue::known(MemoryKind K, Origin O) {
  PointerValue V(Tag::Known);
  V.Kind = K;
  V.Origins.push_back(O);
  return V;
}

PointerValue PointerValue::join(const PointerValue &A, const PointerValue &B) {
  if (A.T == Tag::Unset)
    return B;
  if (B.T == Tag::Unset)
    return A;
  if (A.T == Tag::Unknown || B.T == Tag::Unknown || A.Kind != B.Kind)
    return unknown();
  PointerValue V = A;
  for (Origin O : B.Origins)
    if (!llvm::is_contained(V.Origins, O))
      V.Origins.push_back(O);
  if (V.Origins.size() > MaxOrigins)
    return unknown();
  llvm::sort(V.Origins, [](Origin L, Origin R) {
    return L.getOpaqueValue() < R.getOpaqueValue();
  });
  return V;
}

PointerValue ProvenanceState::get(const clang::VarDecl *VD) const {
  auto It = Vars.find(VD);
  if (It != Vars.end())
    return It->second;
  return llvm::isa<clang::ParmVarDecl>(VD) ? PointerValue::unknown()
                                           : PointerValue::unset();
}

Registration ProvenanceState::registration(Origin O) const {
  auto It = Registered.find(O.getOpaqueValue());
  return It == Registered.end() ? Registration::No : It->second;
}

void ProvenanceState::join(const ProvenanceState &Other) {
  for (const auto &[VD, V] : Other.Vars) {
    PointerValue Joined = PointerValue::join(get(VD), V);
    Vars.insert_or_assign(VD, std::move(Joined));
  }
  for (auto &[VD, V] : Vars)
    if (!Other.Vars.count(VD))
      V = PointerValue::join(V, Other.get(VD));
  for (const auto &[Key, R] : Other.Registered) {
    auto [It, Inserted] = Registered.try_emplace(Key, Registration::No);
    if (It->second != R)
      It->second = Registration::Maybe;
  }
  for (auto &[Key, R] : Registered)
    if (!Other.Registered.count(Key) && R != Registration::No)
      R = Registration::Maybe;
}

} // namespace cuda_async_lint
