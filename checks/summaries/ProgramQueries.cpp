//===- ProgramQueries.cpp -------------------------------------------------===//

#include "ProgramQueries.h"
#include "ProgramSummaries.h"
#include "llvm/Support/FormatVariadic.h"
#include <mutex>

namespace cuda_async_lint {

namespace {

struct KindName {
  ProgramQuestion::Kind What;
  const char *Name;
  /// The question names a USR or key, an argument index, a call's shape.
  bool HasKey, HasIndex, HasShape;
};

constexpr KindName KindNames[] = {
    {ProgramQuestion::Kind::Installed, "installed", false, false, false},
    {ProgramQuestion::Kind::EveryCaller, "every-caller", false, false, false},
    {ProgramQuestion::Kind::Returns, "returns", true, false, false},
    {ProgramQuestion::Kind::OutParam, "out-param", true, true, false},
    {ProgramQuestion::Kind::CallEffect, "call-effect", true, false, true},
    {ProgramQuestion::Kind::Syncs, "syncs", true, false, true},
    {ProgramQuestion::Kind::HostUse, "host-use", true, true, false},
    {ProgramQuestion::Kind::Field, "field", true, false, false},
    {ProgramQuestion::Kind::Argument, "argument", true, true, false},
    {ProgramQuestion::Kind::Parameter, "parameter", true, true, false},
    {ProgramQuestion::Kind::Stored, "stored", true, false, false},
    {ProgramQuestion::Kind::NotOnlyCalled, "not-only-called", true, false,
     false},
    {ProgramQuestion::Kind::Registered, "registered", true, false, false},
    {ProgramQuestion::Kind::RegistersContainers, "registers-containers", false,
     false, false},
};

const KindName &nameOf(ProgramQuestion::Kind K) {
  for (const KindName &N : KindNames)
    if (N.What == K)
      return N;
  llvm_unreachable("every kind has a name");
}

} // namespace

std::string ProgramQuestion::text() const {
  const KindName &N = nameOf(What);
  std::string Out = N.Name;
  if (N.HasIndex)
    Out += " " + std::to_string(Index);
  if (N.HasShape)
    Out += " " + Shape;
  if (N.HasKey)
    Out += " " + Key;
  return Out;
}

std::optional<ProgramQuestion> ProgramQuestion::parse(llvm::StringRef Text) {
  using Kind = ProgramQuestion::Kind;
  auto [Name, Rest] = Text.split(' ');
  for (const KindName &N : KindNames) {
    if (Name != N.Name)
      continue;
    ProgramQuestion Q;
    Q.What = N.What;
    if (N.HasIndex) {
      auto [Number, Tail] = Rest.split(' ');
      if (Number.getAsInteger(10, Q.Index))
        return std::nullopt;
      Rest = Tail;
    }
    if (N.HasShape) {
      auto [Shape, Tail] = Rest.split(' ');
      if (Shape.empty() ||
          (N.What == Kind::CallEffect ? !CallShape::parse(Shape)
                                      : !SyncShape::parse(Shape)))
        return std::nullopt;
      Q.Shape = Shape.str();
      Rest = Tail;
    }
    if (N.HasKey != !Rest.empty())
      return std::nullopt;
    Q.Key = Rest.str();
    return Q;
  }
  return std::nullopt;
}

std::string describeAnswer(const PointerValue &V) {
  switch (V.tag()) {
  case PointerValue::Tag::Unset:
    return "unset";
  case PointerValue::Tag::Unknown:
    if (V.origins().empty())
      return "unknown";
    break;
  case PointerValue::Tag::Known:
    break;
  }
  std::vector<std::string> Origins;
  for (Origin O : V.origins()) {
    // Values of the store hold only its origins; any other is this unit's
    // own and never comes from the program.
    const auto *E = O.dyn_cast<const ExternalOrigin *>();
    Origins.push_back(E ? E->key() + "|" + E->Note + "|" + E->Releaser
                        : "local");
  }
  llvm::sort(Origins);
  std::string Out = V.isKnown() ? memoryKindName(V.kind()).str() : "mixed";
  for (const std::string &O : Origins)
    Out += "\n" + O;
  return Out;
}

std::string describeAnswer(const CallEffects &E) {
  std::string Out;
  for (size_t I = 0; I < E.Args.size(); ++I) {
    const ArgumentEffect &A = E.Args[I];
    if (A.Stores)
      Out += llvm::formatv("{0}: stores {1}\n", I, describeAnswer(*A.Stores));
    if (A.Registers)
      Out += llvm::formatv("{0}: registration {1}\n", I,
                           registrationName(*A.Registers));
    if (A.Clobbers)
      Out += llvm::formatv("{0}: anything stored\n", I);
  }
  if (!E.Exit)
    return Out;
  // What the callee leaves registered: by origin (another unit's, by its
  // key), or a registration anything may have undone.
  std::vector<std::string> Exit;
  for (const auto &[Key, Fact] : E.Exit->ExitRegistration) {
    std::string Name = "unknown memory";
    if (Key != UnknownUnregistration) {
      Origin O = Origin::getFromOpaqueValue(const_cast<void *>(Key));
      const auto *External = O.dyn_cast<const ExternalOrigin *>();
      Name = External ? External->key() : "local";
    }
    Exit.push_back("left " + Name + " " + registrationName(Fact.R).str() +
                   (Fact.Fresh ? " fresh" : ""));
  }
  for (const auto &[VD, R] : E.Exit->RegistersGlobal)
    Exit.push_back("left global " + VD->getQualifiedNameAsString() + " " +
                   registrationName(R).str());
  llvm::sort(Exit);
  for (const std::string &Line : Exit)
    Out += Line + "\n";
  return Out;
}

std::string describeAnswer(const CallSyncs &S) {
  std::string Out = S.Device ? "device" : "";
  auto List = [&](const char *Name, const std::vector<unsigned> &Indices) {
    for (unsigned I : Indices)
      Out += llvm::formatv(" {0} {1}", Name, I).str();
  };
  List("stream", S.Streams);
  List("event", S.Events);
  return Out.empty() ? "nothing" : Out;
}

std::string answerAbout(const FunctionFacts *F, const ProgramQuestion &Q) {
  using Kind = ProgramQuestion::Kind;
  switch (Q.What) {
  case Kind::Returns:
    return describeAnswer(F ? F->Summary.Returns : PointerValue::unknown());
  case Kind::OutParam:
    if (F && Q.Index < F->Summary.OutParams.size() &&
        F->Summary.OutParams[Q.Index])
      return describeAnswer(*F->Summary.OutParams[Q.Index]);
    return "none";
  case Kind::CallEffect:
    if (std::optional<CallShape> Shape = CallShape::parse(Q.Shape))
      return describeAnswer(callEffects(F ? &F->Summary : nullptr, *Shape));
    return "malformed";
  case Kind::Syncs:
    if (std::optional<SyncShape> Shape = SyncShape::parse(Q.Shape))
      return describeAnswer(callSyncs(F ? &F->Sync : nullptr, *Shape));
    return "malformed";
  case Kind::HostUse:
    if (!F)
      return "unknown";
    if (F->HostWritesParams.count(Q.Index))
      return "write";
    return F->HostTouchesParams.count(Q.Index) ? "read" : "none";
  default:
    llvm_unreachable("a question about a function");
  }
}

std::string describeAnswer(bool B) { return B ? "yes" : "no"; }

std::string answer(const ProgramSummaries *Program, llvm::StringRef Unit,
                   const ProgramQuestion &Q) {
  // With no store, ProgramView answers as a store that knows nothing.
  using Kind = ProgramQuestion::Kind;
  switch (Q.What) {
  case Kind::Installed:
    return describeAnswer(Program != nullptr);
  case Kind::EveryCaller:
    return describeAnswer(Program && Program->holdsEveryCaller());
  case Kind::Returns:
  case Kind::OutParam:
  case Kind::CallEffect:
  case Kind::Syncs:
  case Kind::HostUse:
    return answerAbout(Program ? Program->function(Q.Key, Unit) : nullptr, Q);
  case Kind::Field:
    return describeAnswer(Program ? Program->field(Q.Key, Unit)
                                  : PointerValue::unset());
  case Kind::Argument:
    return describeAnswer(Program ? Program->argument(Q.Key, Q.Index, Unit)
                                  : PointerValue::unset());
  case Kind::Parameter:
    return describeAnswer(Program ? Program->parameter(Q.Key, Q.Index, Unit)
                                  : PointerValue::unknown());
  case Kind::Stored:
    return describeAnswer(Program ? Program->stored(Q.Key, Unit)
                                  : PointerValue::unknown());
  case Kind::NotOnlyCalled:
    return describeAnswer(Program && Program->notOnlyCalled(Q.Key, Unit));
  case Kind::Registered:
    return describeAnswer(Program && Program->registered(Q.Key, Unit));
  case Kind::RegistersContainers:
    return describeAnswer(Program && Program->registersContainerStorage(Unit));
  }
  llvm_unreachable("every kind is answered");
}

std::string nameOfUsr(llvm::StringRef Usr) {
  if (!Usr.consume_front("c:"))
    return Usr.str();
  // '@' introduces each part: a kind (N namespace, S/ST/SP a record, U a
  // union, E an enum, F/FT a function, FI a field, C an ObjC class), then
  // its name; a function's name ends where its signature begins ('#').
  // A part naming a file ('kernel.cu@F@f', internal linkage) is skipped.
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Usr.split(Parts, '@');
  std::string Name;
  for (size_t I = 0; I + 1 < Parts.size(); ++I) {
    // A template's kind carries its parameters ('ST>1#T').
    llvm::StringRef Kind = Parts[I].take_until([](char C) { return C == '>'; });
    if (!llvm::is_contained({"N", "S", "ST", "SP", "U", "E", "F", "FT", "FI"},
                            Kind))
      continue;
    llvm::StringRef Part = Parts[I + 1];
    Part = Part.take_until([](char C) { return C == '#' || C == '>'; });
    if (Part.empty())
      continue;
    if (!Name.empty())
      Name += "::";
    Name += Part.str();
    ++I;
    // A function's signature, which names types too, follows its name.
    if (Kind == "F" || Kind == "FT" || Kind == "FI")
      break;
  }
  return Name.empty() ? ("c:" + Usr).str() : Name;
}

std::string ProgramQuestion::describe() const {
  std::string Of = "'" + nameOfUsr(Key) + "'";
  std::string N = std::to_string(Index);
  switch (What) {
  case Kind::Installed:
    return "whether a summary store is installed";
  case Kind::EveryCaller:
    return "whether it holds every caller";
  case Kind::Returns:
    return "what " + Of + " returns";
  case Kind::OutParam:
    return "what " + Of + " stores through its parameter " + N;
  case Kind::CallEffect:
    return "what a call of " + Of + " does to its arguments";
  case Kind::Syncs:
    return "what a call of " + Of + " waits for";
  case Kind::HostUse:
    return "what " + Of + " does on the host with what its parameter " + N +
           " points to";
  case Kind::Field:
    return "what the units store into " + Of;
  case Kind::Stored:
    return "what " + Of + " holds by the other units' stores";
  case Kind::Argument:
    return "what calls of " + Of + " pass as argument " + N;
  case Kind::Parameter:
    return "what the other units' calls of " + Of + " pass as parameter " + N;
  case Kind::NotOnlyCalled:
    return "whether " + Of + " is named other than as a callee";
  case Kind::Registered:
    return "whether the memory of " + Of + " is registered";
  case Kind::RegistersContainers:
    return "whether a container's storage is registered";
  }
  llvm_unreachable("every kind is described");
}

std::optional<std::string>
ProgramQueries::differenceIn(const ProgramSummaries *Program) const {
  for (const auto &[Question, Answer] : Answers) {
    std::optional<ProgramQuestion> Q = ProgramQuestion::parse(Question);
    if (!Q || answer(Program, Unit, *Q) != Answer)
      return Question;
  }
  return std::nullopt;
}

unsigned ProgramQueries::pending(const std::string &Question,
                                 std::string Answer, bool Grows) {
  auto [It, New] = PendingNumber.try_emplace(Question, Pending.size());
  if (New) {
    Pending.push_back({Question, std::move(Answer)});
    Used.push_back(false);
  }
  return It->second << 1 | (Grows ? 1 : 0);
}

void ProgramQueries::use(llvm::ArrayRef<unsigned> Numbers) {
  for (unsigned N : Numbers) {
    unsigned I = N >> 1;
    if (I >= Pending.size() || Used[I])
      continue;
    Used[I] = true;
    const auto &[Question, Answer] = Pending[I];
    if (!asked(Question))
      record(Question, Answer);
  }
}

llvm::json::Value ProgramQueries::toJSON() const {
  llvm::json::Array List;
  for (const auto &[Question, Answer] : Answers)
    List.push_back(llvm::json::Array{Question, Answer});
  return llvm::json::Object{{"unit", Unit}, {"answers", std::move(List)}};
}

llvm::Expected<ProgramQueries>
ProgramQueries::fromJSON(const llvm::json::Value &V) {
  auto Malformed = [] {
    return llvm::createStringError(
        "a unit's record of program questions is malformed");
  };
  const llvm::json::Object *O = V.getAsObject();
  const llvm::json::Array *List = O ? O->getArray("answers") : nullptr;
  std::optional<llvm::StringRef> Unit = O ? O->getString("unit") : std::nullopt;
  if (!List || !Unit)
    return Malformed();
  ProgramQueries Out;
  Out.Unit = Unit->str();
  for (const llvm::json::Value &Item : *List) {
    const llvm::json::Array *Pair = Item.getAsArray();
    if (!Pair || Pair->size() != 2)
      return Malformed();
    std::optional<llvm::StringRef> Question = (*Pair)[0].getAsString();
    std::optional<llvm::StringRef> Answer = (*Pair)[1].getAsString();
    if (!Question || !Answer || !ProgramQuestion::parse(*Question))
      return Malformed();
    Out.record(Question->str(), Answer->str());
  }
  return Out;
}

llvm::Expected<ProgramQueries> ProgramQueries::parse(llvm::StringRef Text) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V)
    return V.takeError();
  return fromJSON(*V);
}

namespace {
struct Recording {
  std::mutex Lock;
  ProgramQueries *Queries = nullptr;
};
Recording &recording() {
  static Recording R;
  return R;
}
} // namespace

/// The record a value's answers go to when it is read: set with the
/// record, read without the lock (the analysis that reads values is the
/// one that set it).
static ProgramQueries *Reading = nullptr;

/// A value made from the program's answers was read: record them.
static void useAnswers(llvm::ArrayRef<unsigned> Numbers) {
  if (Reading)
    Reading->use(Numbers);
}

void recordProgramQueries(ProgramQueries *Queries) {
  Recording &R = recording();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Queries = Queries;
  Reading = Queries;
  setProgramAnswerHook(Queries ? useAnswers : nullptr);
}

ProgramQueries *programQueryRecord() {
  Recording &R = recording();
  std::lock_guard<std::mutex> Guard(R.Lock);
  return R.Queries;
}

} // namespace cuda_async_lint
