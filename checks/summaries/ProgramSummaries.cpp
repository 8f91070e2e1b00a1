//===- ProgramSummaries.cpp - The program's summaries, read and merged ----===//

#include "ProgramSummaries.h"
#include "Summarize.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <map>
#include <set>

using llvm::json::Array;
using llvm::json::Object;

namespace cuda_async_lint {

struct ProgramSummaries::Unit {
  std::string File;
  llvm::StringMap<FunctionFacts> Functions;
  /// Per field: the join of the unit's stores, and whether it escaped.
  struct FieldFact {
    PointerValue Stores = PointerValue::unknown();
    bool Escaped = true;
  };
  llvm::StringMap<FieldFact> Fields;
  /// Per callee: each call's arguments.
  llvm::StringMap<std::vector<std::vector<PointerValue>>> Calls;
  std::set<std::string> NotOnlyCalled;
  std::set<std::string> Registered;
  bool RegistersContainers = false;
};

namespace {

llvm::Error malformed(llvm::StringRef Where, llvm::StringRef What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv("{0}: {1}", Where, What).str());
}

std::optional<MemoryKind> kindNamed(llvm::StringRef Name) {
  for (MemoryKind K :
       {MemoryKind::Pageable, MemoryKind::Pinned, MemoryKind::Registered,
        MemoryKind::Managed, MemoryKind::Device})
    if (memoryKindName(K) == Name)
      return K;
  return std::nullopt;
}

std::optional<Registration> registrationNamed(llvm::StringRef Name) {
  for (Registration R :
       {Registration::Yes, Registration::No, Registration::Maybe})
    if (registrationName(R) == Name)
      return R;
  return std::nullopt;
}

std::vector<std::string> strings(const Object &O, llvm::StringRef Key) {
  std::vector<std::string> Out;
  if (const Array *A = O.getArray(Key))
    for (const llvm::json::Value &V : *A)
      if (std::optional<llvm::StringRef> S = V.getAsString())
        Out.push_back(S->str());
  return Out;
}

} // namespace

llvm::StringRef registrationName(Registration R) {
  switch (R) {
  case Registration::Yes:
    return "yes";
  case Registration::No:
    return "no";
  case Registration::Maybe:
    return "maybe";
  }
  return "maybe";
}

const ExternalOrigin *ProgramSummaries::origin(ExternalOrigin O) {
  std::unique_ptr<ExternalOrigin> &Slot = Origins[O.key()];
  if (!Slot)
    Slot = std::make_unique<ExternalOrigin>(std::move(O));
  return Slot.get();
}

llvm::Expected<PointerValue> ProgramSummaries::value(const llvm::json::Value *V,
                                                     llvm::StringRef Where) {
  if (!V || V->getAsString() == llvm::StringRef("unknown"))
    return PointerValue::unknown();
  const Object *O = V->getAsObject();
  std::optional<MemoryKind> Kind =
      O ? kindNamed(O->getString("kind").value_or("")) : std::nullopt;
  const Array *List = O ? O->getArray("origins") : nullptr;
  if (!Kind || !List || List->empty())
    return malformed(Where, "a value is neither \"unknown\" nor a kind with "
                            "origins");
  PointerValue Result = PointerValue::unset();
  for (const llvm::json::Value &Item : *List) {
    const Object *OO = Item.getAsObject();
    std::optional<llvm::StringRef> File =
        OO ? OO->getString("file") : std::nullopt;
    std::optional<int64_t> Line = OO ? OO->getInteger("line") : std::nullopt;
    std::optional<int64_t> Column =
        OO ? OO->getInteger("column") : std::nullopt;
    if (!File || !Line || !Column || *Line <= 0 || *Column <= 0)
      return malformed(Where, "an origin lacks its file, line or column");
    ExternalOrigin E;
    E.File = File->str();
    E.Line = unsigned(*Line);
    E.Column = unsigned(*Column);
    E.Note = OO->getString("note").value_or("").str();
    E.Releaser = OO->getString("releaser").value_or("").str();
    Result = PointerValue::join(Result, PointerValue::known(*Kind, origin(E)));
  }
  return Result;
}

llvm::Error ProgramSummaries::addUnit(Object U) {
  auto Result = std::make_unique<Unit>();
  std::optional<llvm::StringRef> File = U.getString("file");
  if (!File || File->empty())
    return malformed("a unit", "it names no file");
  Result->File = File->str();
  if (Files.contains(Result->File))
    return llvm::Error::success();
  std::string Where = "the summary of '" + Result->File + "'";

  if (const Array *Functions = U.getArray("functions"))
    for (const llvm::json::Value &Item : *Functions) {
      const Object *F = Item.getAsObject();
      std::optional<llvm::StringRef> Usr =
          F ? F->getString("usr") : std::nullopt;
      if (!Usr)
        return malformed(Where, "a function has no USR");
      FunctionFacts Facts;
      Facts.Name = F->getString("name").value_or("").str();
      llvm::Expected<PointerValue> Returns = value(F->get("returns"), Where);
      if (!Returns)
        return Returns.takeError();
      Facts.Summary.Returns = std::move(*Returns);
      if (const Array *Outs = F->getArray("outParams"))
        for (const llvm::json::Value &Out : *Outs) {
          if (Out.kind() == llvm::json::Value::Null) {
            Facts.Summary.OutParams.push_back(std::nullopt);
            continue;
          }
          llvm::Expected<PointerValue> V = value(&Out, Where);
          if (!V)
            return V.takeError();
          Facts.Summary.OutParams.push_back(std::move(*V));
        }
      if (const Array *Registers = F->getArray("registersParam"))
        for (const llvm::json::Value &R : *Registers)
          Facts.Summary.RegistersParam.push_back(
              registrationNamed(R.getAsString().value_or("")));
      if (const Array *Exit = F->getArray("exitRegistration"))
        for (const llvm::json::Value &Item : *Exit) {
          const Object *E = Item.getAsObject();
          std::optional<Registration> R =
              E ? registrationNamed(E->getString("registration").value_or(""))
                : std::nullopt;
          llvm::Expected<PointerValue> V =
              value(E ? E->get("value") : nullptr, Where);
          if (!V)
            return V.takeError();
          if (R && V->isKnown())
            for (Origin O : V->origins())
              Facts.Summary.ExitRegistration.insert_or_assign(
                  O.getOpaqueValue(), RegistrationFact{*R, nullptr});
        }
      Facts.Sync.Device = F->getBoolean("syncsDevice").value_or(false);
      auto Indices = [&](llvm::StringRef Key, std::set<unsigned> &Out) {
        if (const Array *Params = F->getArray(Key))
          for (const llvm::json::Value &P : *Params)
            if (std::optional<int64_t> I = P.getAsInteger(); I && *I >= 0)
              Out.insert(unsigned(*I));
      };
      Indices("syncsStreamParams", Facts.Sync.StreamParams);
      Indices("syncsEventParams", Facts.Sync.EventParams);
      Indices("hostTouchesParams", Facts.HostTouchesParams);
      Indices("hostWritesParams", Facts.HostWritesParams);
      Facts.TakesCallSites = F->getBoolean("takesCallSites").value_or(false);
      Result->Functions.try_emplace(*Usr, std::move(Facts));
    }

  if (const Array *Fields = U.getArray("fields"))
    for (const llvm::json::Value &Item : *Fields) {
      const Object *F = Item.getAsObject();
      std::optional<llvm::StringRef> Usr =
          F ? F->getString("usr") : std::nullopt;
      if (!Usr)
        return malformed(Where, "a field has no USR");
      llvm::Expected<PointerValue> Stores = value(F->get("stores"), Where);
      if (!Stores)
        return Stores.takeError();
      Result->Fields[*Usr] = {F->get("stores") ? std::move(*Stores)
                                               : PointerValue::unset(),
                              F->getBoolean("escaped").value_or(true)};
    }

  if (const Array *Calls = U.getArray("calls"))
    for (const llvm::json::Value &Item : *Calls) {
      const Object *C = Item.getAsObject();
      std::optional<llvm::StringRef> Usr =
          C ? C->getString("usr") : std::nullopt;
      const Array *Args = C ? C->getArray("arguments") : nullptr;
      if (!Usr || !Args)
        return malformed(Where, "a call lacks its callee or arguments");
      std::vector<PointerValue> Values;
      for (const llvm::json::Value &A : *Args) {
        llvm::Expected<PointerValue> V = value(&A, Where);
        if (!V)
          return V.takeError();
        Values.push_back(std::move(*V));
      }
      Result->Calls[*Usr].push_back(std::move(Values));
    }
  for (std::string &Usr : strings(U, "notOnlyCalled"))
    Result->NotOnlyCalled.insert(std::move(Usr));
  for (std::string &Key : strings(U, "registered"))
    Result->Registered.insert(std::move(Key));
  Result->RegistersContainers =
      U.getBoolean("registersContainerStorage").value_or(true);

  unsigned Index = Units.size();
  auto List = [&](llvm::StringMap<llvm::SmallVector<unsigned, 1>> &In,
                  llvm::StringRef Key) { In[Key].push_back(Index); };
  for (const auto &F : Result->Functions)
    List(Defining, F.getKey());
  for (const auto &F : Result->Fields)
    List(Storing, F.getKey());
  for (const auto &C : Result->Calls)
    List(Calling, C.getKey());
  for (const std::string &Usr : Result->NotOnlyCalled)
    List(Naming, Usr);
  for (const std::string &Key : Result->Registered)
    List(Registering, Key);
  if (Result->RegistersContainers)
    RegisteringContainers.push_back(Index);
  Files.insert(Result->File);
  Units.push_back(std::move(Result));
  if (Document)
    Raw.push_back(std::move(U));
  return llvm::Error::success();
}

std::shared_ptr<ProgramSummaries> ProgramSummaries::empty(bool EveryCaller,
                                                          bool Document) {
  auto Program = std::make_shared<ProgramSummaries>();
  Program->EveryCaller = EveryCaller;
  Program->Document = Document;
  return Program;
}

llvm::Expected<std::shared_ptr<ProgramSummaries>>
ProgramSummaries::fromUnits(std::vector<Object> Units, bool EveryCaller,
                            bool Document) {
  std::vector<size_t> Order(Units.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::sort(Order, [&](size_t A, size_t B) {
    return std::make_pair(Units[A].getString("file").value_or(""), A) <
           std::make_pair(Units[B].getString("file").value_or(""), B);
  });
  std::shared_ptr<ProgramSummaries> Program = empty(EveryCaller, Document);
  for (size_t I : Order)
    if (llvm::Error E = Program->addUnit(std::move(Units[I])))
      return std::move(E);
  return Program;
}

llvm::Expected<std::shared_ptr<ProgramSummaries>>
ProgramSummaries::parse(llvm::StringRef Text, llvm::StringRef Name) {
  llvm::Expected<llvm::json::Value> Doc = llvm::json::parse(Text);
  if (!Doc)
    return malformed(Name, "not JSON: " + llvm::toString(Doc.takeError()));
  return fromJSON(std::move(*Doc), Name);
}

llvm::Expected<std::shared_ptr<ProgramSummaries>>
ProgramSummaries::fromJSON(llvm::json::Value Doc, llvm::StringRef Name,
                           bool Document) {
  Object *Root = Doc.getAsObject();
  if (!Root || Root->getString("format") != llvm::StringRef(SummaryFormat))
    return malformed(Name, "not a summary store written by cuda-async-lint "
                           "(--emit-summaries)");
  std::optional<int64_t> Version = Root->getInteger("version");
  if (Version != int64_t(SummaryVersion))
    return malformed(
        Name, llvm::formatv("summary store version {0}; this cuda-async-lint "
                            "reads version {1}: summarize again",
                            Version ? std::to_string(*Version) : "unknown",
                            SummaryVersion)
                  .str());
  std::vector<Object> Units;
  if (Array *List = Root->getArray("units"))
    // Reserved: a json::Object is copied, not moved, where a vector grows.
    Units.reserve(List->size());
  if (Array *List = Root->getArray("units"))
    for (llvm::json::Value &U : *List) {
      Object *O = U.getAsObject();
      if (!O)
        return malformed(Name, "a unit is not an object");
      Units.push_back(std::move(*O));
    }
  llvm::Expected<std::shared_ptr<ProgramSummaries>> Program = fromUnits(
      std::move(Units), Root->getBoolean("everyCaller") == true, Document);
  if (!Program)
    return malformed(Name, llvm::toString(Program.takeError()));
  if (const Object *Shard = Root->getObject("shard")) {
    std::optional<int64_t> Index = Shard->getInteger("index");
    std::optional<int64_t> Count = Shard->getInteger("count");
    if (!Index || !Count || *Index < 1 || *Index > *Count)
      return malformed(Name, "its shard is not 'index' of 'count'");
    (*Program)->Shard = ShardOf{unsigned(*Index), unsigned(*Count)};
  }
  return Program;
}

llvm::Expected<llvm::json::Value>
ProgramSummaries::readDocument(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(),
                                   "cannot read the summary store '" + Path +
                                       "': " + Buffer.getError().message());
  llvm::Expected<llvm::json::Value> Doc =
      llvm::json::parse((*Buffer)->getBuffer());
  if (!Doc)
    return malformed(Path, "not JSON: " + llvm::toString(Doc.takeError()));
  return Doc;
}

llvm::Expected<std::shared_ptr<ProgramSummaries>>
ProgramSummaries::readFile(llvm::StringRef Path) {
  llvm::Expected<llvm::json::Value> Doc = readDocument(Path);
  if (!Doc)
    return Doc.takeError();
  return fromJSON(std::move(*Doc), Path);
}

/// The store's document around \p List, its units.
static llvm::json::Value
storeDocument(Array List, bool EveryCaller,
              const std::optional<ProgramSummaries::ShardOf> &Shard) {
  Object Doc{{"format", SummaryFormat},
             {"version", SummaryVersion},
             {"everyCaller", EveryCaller},
             {"units", std::move(List)}};
  if (Shard)
    Doc["shard"] = Object{{"index", Shard->Index}, {"count", Shard->Count}};
  return Doc;
}

llvm::json::Value ProgramSummaries::toJSON() const {
  Array List;
  List.reserve(Raw.size());
  for (const Object &U : Raw)
    List.push_back(Object(U));
  return storeDocument(std::move(List), EveryCaller, Shard);
}

llvm::json::Value ProgramSummaries::takeJSON() {
  Array List;
  List.reserve(Raw.size());
  for (Object &U : Raw)
    List.push_back(std::move(U));
  Raw.clear();
  return storeDocument(std::move(List), EveryCaller, Shard);
}

bool ProgramSummaries::holdEveryCaller(llvm::ArrayRef<PartScope> Parts) {
  bool EveryPart = !Parts.empty();
  std::set<unsigned> Shards;
  std::optional<unsigned> Count;
  for (const PartScope &Part : Parts) {
    EveryPart &= Part.EveryCaller;
    if (Part.Shard && (!Count || *Count == Part.Shard->Count)) {
      Count = Part.Shard->Count;
      Shards.insert(Part.Shard->Index);
    }
  }
  bool AllShards = Count && Shards.size() == *Count &&
                   llvm::all_of(Parts, [&](const PartScope &Part) {
                     return Part.Shard && Part.Shard->Count == *Count;
                   });
  return EveryPart || AllShards;
}

std::vector<std::string> ProgramSummaries::files() const {
  std::vector<std::string> Out;
  for (const auto &U : Units)
    Out.push_back(U->File);
  return Out;
}

template <class Fn>
void ProgramSummaries::forOtherUnits(
    const llvm::StringMap<llvm::SmallVector<unsigned, 1>> &Index,
    llvm::StringRef Key, llvm::StringRef Except, Fn F) const {
  auto It = Index.find(Key);
  if (It == Index.end())
    return;
  for (unsigned I : It->second)
    if (Units[I]->File != Except && !F(*Units[I]))
      return;
}

const FunctionFacts *ProgramSummaries::function(llvm::StringRef Usr,
                                                llvm::StringRef Except) const {
  const FunctionFacts *Found = nullptr;
  forOtherUnits(Defining, Usr, Except, [&](const Unit &U) {
    Found = &U.Functions.find(Usr)->second;
    return false;
  });
  return Found;
}

PointerValue ProgramSummaries::field(llvm::StringRef Usr,
                                     llvm::StringRef Except) const {
  PointerValue V = PointerValue::unset();
  forOtherUnits(Storing, Usr, Except, [&](const Unit &U) {
    const Unit::FieldFact &F = U.Fields.find(Usr)->second;
    if (F.Escaped) {
      V = PointerValue::unknown();
      return false;
    }
    V = PointerValue::join(V, F.Stores);
    return true;
  });
  return V;
}

PointerValue ProgramSummaries::argument(llvm::StringRef Usr, unsigned Index,
                                        llvm::StringRef Except) const {
  PointerValue V = PointerValue::unset();
  forOtherUnits(Calling, Usr, Except, [&](const Unit &U) {
    for (const std::vector<PointerValue> &Args : U.Calls.find(Usr)->second)
      V = PointerValue::join(V, Index < Args.size() ? Args[Index]
                                                    : PointerValue::unknown());
    return true;
  });
  return V;
}

/// Nothing stored, no call: nothing to say.
static PointerValue unsetIsUnknown(PointerValue V) {
  return V.tag() == PointerValue::Tag::Unset ? PointerValue::unknown() : V;
}

PointerValue ProgramSummaries::parameter(llvm::StringRef Usr, unsigned Index,
                                         llvm::StringRef ExceptUnit) const {
  if (notOnlyCalled(Usr, ExceptUnit))
    return PointerValue::unknown();
  return unsetIsUnknown(argument(Usr, Index, ExceptUnit));
}

PointerValue ProgramSummaries::stored(llvm::StringRef Usr,
                                      llvm::StringRef ExceptUnit) const {
  return unsetIsUnknown(field(Usr, ExceptUnit));
}

bool ProgramSummaries::notOnlyCalled(llvm::StringRef Usr,
                                     llvm::StringRef Except) const {
  bool Named = false;
  forOtherUnits(Naming, Usr, Except, [&](const Unit &) {
    Named = true;
    return false;
  });
  return Named;
}

bool ProgramSummaries::registersContainerStorage(llvm::StringRef Except) const {
  return llvm::any_of(RegisteringContainers,
                      [&](unsigned I) { return Units[I]->File != Except; });
}

bool ProgramSummaries::registered(llvm::StringRef Key,
                                  llvm::StringRef Except) const {
  bool Found = false;
  forOtherUnits(Registering, Key, Except, [&](const Unit &) {
    Found = true;
    return false;
  });
  return Found;
}

} // namespace cuda_async_lint
