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
  /// The question names a USR or key, and an argument index.
  bool HasKey, HasIndex;
};

constexpr KindName KindNames[] = {
    {ProgramQuestion::Kind::Installed, "installed", false, false},
    {ProgramQuestion::Kind::EveryCaller, "every-caller", false, false},
    {ProgramQuestion::Kind::Function, "function", true, false},
    {ProgramQuestion::Kind::Field, "field", true, false},
    {ProgramQuestion::Kind::Argument, "argument", true, true},
    {ProgramQuestion::Kind::NotOnlyCalled, "not-only-called", true, false},
    {ProgramQuestion::Kind::Registered, "registered", true, false},
    {ProgramQuestion::Kind::RegistersContainers, "registers-containers", false,
     false},
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
  if (N.HasKey)
    Out += " " + Key;
  return Out;
}

std::optional<ProgramQuestion> ProgramQuestion::parse(llvm::StringRef Text) {
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

std::string describeAnswer(const FunctionFacts *F) {
  return F ? F->Text : "none";
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
  case Kind::Function:
    return describeAnswer(Program ? Program->function(Q.Key, Unit) : nullptr);
  case Kind::Field:
    return describeAnswer(Program ? Program->field(Q.Key, Unit)
                                  : PointerValue::unset());
  case Kind::Argument:
    return describeAnswer(Program ? Program->argument(Q.Key, Q.Index, Unit)
                                  : PointerValue::unset());
  case Kind::NotOnlyCalled:
    return describeAnswer(Program && Program->notOnlyCalled(Q.Key, Unit));
  case Kind::Registered:
    return describeAnswer(Program && Program->registered(Q.Key, Unit));
  case Kind::RegistersContainers:
    return describeAnswer(Program && Program->registersContainerStorage(Unit));
  }
  llvm_unreachable("every kind is answered");
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

void recordProgramQueries(ProgramQueries *Queries) {
  Recording &R = recording();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Queries = Queries;
}

ProgramQueries *programQueryRecord() {
  Recording &R = recording();
  std::lock_guard<std::mutex> Guard(R.Lock);
  return R.Queries;
}

} // namespace cuda_async_lint
