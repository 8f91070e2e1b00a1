//===- SyncSummary.cpp ----------------------------------------------------===//

#include "SyncSummary.h"
#include "llvm/ADT/SmallVector.h"

namespace cuda_async_lint {

static std::string indexList(const std::vector<unsigned> &Indices) {
  std::string Out;
  for (unsigned I : Indices) {
    if (!Out.empty())
      Out += ',';
    Out += std::to_string(I);
  }
  return Out;
}

static bool parseIndexList(llvm::StringRef Text, std::vector<unsigned> &Out) {
  if (Text.empty())
    return true;
  llvm::SmallVector<llvm::StringRef, 4> Items;
  Text.split(Items, ',');
  for (llvm::StringRef Item : Items) {
    unsigned I = 0;
    if (Item.getAsInteger(10, I))
      return false;
    Out.push_back(I);
  }
  return true;
}

std::string SyncShape::text() const {
  return std::string(OpaqueWithoutSummary ? "o1" : "o0") + ";n" +
         std::to_string(NumArgs) + ";s" + indexList(Streams) + ";e" +
         indexList(Events);
}

std::optional<SyncShape> SyncShape::parse(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Text.split(Parts, ';');
  SyncShape Shape;
  if (Parts.size() != 4 || (Parts[0] != "o0" && Parts[0] != "o1") ||
      !Parts[1].consume_front("n") ||
      Parts[1].getAsInteger(10, Shape.NumArgs) ||
      !Parts[2].consume_front("s") ||
      !parseIndexList(Parts[2], Shape.Streams) ||
      !Parts[3].consume_front("e") || !parseIndexList(Parts[3], Shape.Events))
    return std::nullopt;
  Shape.OpaqueWithoutSummary = Parts[0] == "o1";
  return Shape;
}

CallSyncs callSyncs(const SyncSummary *Summary, const SyncShape &Shape) {
  CallSyncs Out;
  if (!Summary) {
    if (Shape.OpaqueWithoutSummary) {
      Out.Streams = Shape.Streams;
      Out.Events = Shape.Events;
    }
    return Out;
  }
  Out.Device = Summary->Device;
  for (unsigned I : Summary->StreamParams)
    if (I < Shape.NumArgs)
      Out.Streams.push_back(I);
  for (unsigned I : Summary->EventParams)
    if (I < Shape.NumArgs)
      Out.Events.push_back(I);
  return Out;
}

} // namespace cuda_async_lint
