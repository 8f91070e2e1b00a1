//===- CallEffects.cpp ----------------------------------------------------===//

#include "CallEffects.h"
#include "llvm/ADT/STLExtras.h"

namespace cuda_async_lint {

std::string CallShape::text() const {
  std::string Out = OpaqueWithoutSummary ? "o1" : "o0";
  Out += ';';
  for (size_t I = 0; I < Args.size(); ++I) {
    const ArgumentShape &A = Args[I];
    if (I)
      Out += ',';
    Out += A.Param ? std::to_string(*A.Param) : "-";
    if (A.Pointer)
      Out += 'p';
    if (A.Keyed)
      Out += 'k';
    if (A.Clobberable)
      Out += 'c';
  }
  return Out;
}

std::optional<CallShape> CallShape::parse(llvm::StringRef Text) {
  CallShape Shape;
  auto [Opaque, List] = Text.split(';');
  if (Opaque != "o0" && Opaque != "o1")
    return std::nullopt;
  Shape.OpaqueWithoutSummary = Opaque == "o1";
  if (List.empty())
    return Shape;
  llvm::SmallVector<llvm::StringRef, 8> Items;
  List.split(Items, ',');
  for (llvm::StringRef Item : Items) {
    ArgumentShape A;
    if (Item.consume_front("-")) {
      A.Param = std::nullopt;
    } else {
      unsigned P = 0;
      if (Item.consumeInteger(10, P))
        return std::nullopt;
      A.Param = P;
    }
    A.Pointer = Item.consume_front("p");
    A.Keyed = Item.consume_front("k");
    A.Clobberable = Item.consume_front("c");
    if (!Item.empty())
      return std::nullopt;
    Shape.Args.push_back(A);
  }
  return Shape;
}

ArgumentEffect argumentEffect(const FunctionSummary *Summary, bool Opaque,
                              const ArgumentShape &Arg) {
  ArgumentEffect E;
  std::optional<unsigned> P = Arg.Param;
  // What a summarized function stores through the out-parameter is all it
  // does to that argument.
  if (Summary && P && *P < Summary->OutParams.size() &&
      Summary->OutParams[*P]) {
    E.Stores = Summary->OutParams[*P];
    return E;
  }
  if (Summary && P && *P < Summary->RegistersParam.size())
    E.Registers = Summary->RegistersParam[*P];
  // A function the analysis cannot see may pin or unpin what it gets.
  if (!Summary && Opaque && Arg.Pointer)
    E.Registers = Registration::Maybe;
  // Registering memory nothing names changes nothing; unregistering it may
  // undo any registration.
  if (E.Registers && !Arg.Keyed && *E.Registers != Registration::No)
    E.Registers.reset();
  // Any other call may store through '&p' or a non-const reference.
  E.Clobbers = !Summary && Arg.Clobberable;
  return E;
}

CallEffects callEffects(const FunctionSummary *Summary,
                        const CallShape &Shape) {
  CallEffects Out;
  for (const ArgumentShape &A : Shape.Args)
    Out.Args.push_back(argumentEffect(Summary, Shape.OpaqueWithoutSummary, A));
  Out.Exit = Summary;
  return Out;
}

} // namespace cuda_async_lint
