//===- CheckOptions.cpp ---------------------------------------------------===//

#include "cuda-async-lint/CheckOptions.h"
#include "llvm/ADT/SmallVector.h"

namespace cuda_async_lint {

CheckOptions::~CheckOptions() = default;

uint64_t CheckOptions::unsignedOr(llvm::StringRef Name,
                                  uint64_t Default) const {
  std::optional<std::string> Value = local(Name);
  if (!Value)
    return Default;
  uint64_t N = 0;
  if (llvm::StringRef(*Value).trim().getAsInteger(10, N)) {
    invalid(Name, *Value, "a non-negative integer");
    return Default;
  }
  return N;
}

std::vector<std::string> CheckOptions::globalList(llvm::StringRef Name) const {
  std::vector<std::string> Items;
  std::optional<std::string> Value = global(Name);
  if (!Value)
    return Items;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  llvm::StringRef(*Value).split(Parts, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts) {
    llvm::SmallVector<llvm::StringRef, 4> Names;
    Part.split(Names, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef N : Names)
      if (!N.trim().empty())
        Items.push_back(N.trim().str());
  }
  return Items;
}

} // namespace cuda_async_lint
