//===- ProgramSummaries.h - What every translation unit says ----*- C++ -*-===//
//
// The summaries of a whole program's translation units: for each function
// with external linkage, what its callers see (the pointer it returns, what
// it stores through out-parameters, which parameters it registers, which
// streams it always synchronizes); for each field, what the unit stores into
// it; for each call of an external function, what it passes; the memory the
// unit registers. Keyed by clang's USRs, which name the same declaration the
// same way in every translation unit.
//
// A translation unit's analysis draws on every unit's summary but its own
// (its own body it sees whole). The store is a versioned JSON document
// (docs/design.md, "Program summaries"); units merge by concatenation, so
// shards of a CI matrix summarize apart and merge.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_SUMMARIES_PROGRAMSUMMARIES_H
#define CUDA_ASYNC_LINT_SUMMARIES_PROGRAMSUMMARIES_H

#include "../analysis/provenance/HostProvenance.h"
#include "../analysis/sync/SyncSummary.h"
#include "ProgramQueries.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <deque>
#include <map>
#include <memory>

namespace cuda_async_lint {

/// The store's format name and version: a reader refuses other versions.
inline constexpr const char *SummaryFormat = "cuda-async-lint-summaries";
inline constexpr unsigned SummaryVersion = 2;

/// How the store spells a registration: "yes", "no", "maybe".
llvm::StringRef registrationName(Registration R);

/// What one function defined in one unit does, as its callers see it.
struct FunctionFacts {
  std::string Name;
  /// Origins are ExternalOrigins of the store.
  FunctionSummary Summary;
  SyncSummary Sync;
  /// Its pointer parameters may take what every call site of the program
  /// passes (summaries/Summarize.h, takesProgramCallSites).
  bool TakesCallSites = false;
  /// The pointer parameters through which it may touch memory on the host
  /// (read or write), and those through which it may write it
  /// (pending/ParameterHostUses.h).
  std::set<unsigned> HostTouchesParams, HostWritesParams;
};

class ProgramSummaries {
public:
  /// Reads a store (the document --emit-summaries writes). \p Name names it
  /// in errors.
  static llvm::Expected<std::shared_ptr<ProgramSummaries>>
  parse(llvm::StringRef Text, llvm::StringRef Name);
  /// The same, of a document already parsed; members it does not know (a
  /// driver's own) are ignored. Without \p Document it answers questions
  /// only (empty()).
  static llvm::Expected<std::shared_ptr<ProgramSummaries>>
  fromJSON(llvm::json::Value Doc, llvm::StringRef Name, bool Document = true);

  /// Reads the store in the file \p Path; the error names it.
  static llvm::Expected<std::shared_ptr<ProgramSummaries>>
  readFile(llvm::StringRef Path);
  /// The JSON document in the store file \p Path, unread (a driver reads
  /// its own members first); the error names the file.
  static llvm::Expected<llvm::json::Value> readDocument(llvm::StringRef Path);

  /// A store of \p Units (each a unit summary as summarizeTranslationUnit
  /// makes it), in the order of their files. A file summarized twice (by
  /// overlapping shards) keeps its first summary. Without \p Document it
  /// answers questions only (empty()).
  static llvm::Expected<std::shared_ptr<ProgramSummaries>>
  fromUnits(std::vector<llvm::json::Object> Units, bool EveryCaller,
            bool Document = true);

  /// A store of no units yet, which add() fills. Without \p Document it
  /// answers questions only: toJSON() sees none of its units,
  /// and it holds a third of the memory.
  static std::shared_ptr<ProgramSummaries> empty(bool EveryCaller,
                                                 bool Document = true);
  /// Adds \p Unit after the others (a unit of a file the store holds already
  /// is left out). An error says what is malformed in it.
  llvm::Error add(llvm::json::Object Unit) { return addUnit(std::move(Unit)); }

  /// Shard \p Index (from 1) of \p Count of a compilation database.
  struct ShardOf {
    unsigned Index = 1, Count = 1;
  };
  /// The store of a shard: its units, and which shard it is.
  void setShard(ShardOf S) { Shard = S; }

  /// What a part of a merge says of its callers: whether it holds every
  /// caller, and which shard it is.
  struct PartScope {
    bool EveryCaller = false;
    std::optional<ShardOf> Shard;
  };
  /// True if parts of these scopes, merged, hold every caller: each does,
  /// or they are all the shards of one database.
  static bool holdEveryCaller(llvm::ArrayRef<PartScope> Parts);

  /// The store as a document: parse() reads it back.
  llvm::json::Value toJSON() const;
  /// The same, the units' documents moved into it: the store answers
  /// questions still, but toJSON() sees no unit any more.
  llvm::json::Value takeJSON();

  /// The main files of its units.
  std::vector<std::string> files() const;

  /// The facts of \p Usr from the first unit other than \p ExceptUnit (a
  /// main file's real path) that defines it; null if none does.
  const FunctionFacts *function(llvm::StringRef Usr,
                                llvm::StringRef ExceptUnit) const;
  /// The join of what units other than \p ExceptUnit store into field
  /// \p Usr: Unset if none stores into it, Unknown if one lets its address
  /// escape.
  PointerValue field(llvm::StringRef Usr, llvm::StringRef ExceptUnit) const;
  /// The join of what calls of \p Usr in units other than \p ExceptUnit
  /// pass as argument \p Index: Unset if there are none.
  PointerValue argument(llvm::StringRef Usr, unsigned Index,
                        llvm::StringRef ExceptUnit) const;
  /// What parameter \p Index of \p Usr receives from the calls of units
  /// other than \p ExceptUnit alone: unknown if one of them names \p Usr
  /// other than as a callee, or none calls it; else argument().
  PointerValue parameter(llvm::StringRef Usr, unsigned Index,
                         llvm::StringRef ExceptUnit) const;
  /// What field \p Usr holds by the stores of units other than
  /// \p ExceptUnit alone: field(), unknown if none stores into it.
  PointerValue stored(llvm::StringRef Usr, llvm::StringRef ExceptUnit) const;
  /// True if a unit other than \p ExceptUnit names \p Usr other than as a
  /// call's callee (its address taken): callers the program cannot see.
  bool notOnlyCalled(llvm::StringRef Usr, llvm::StringRef ExceptUnit) const;
  /// True if a unit other than \p ExceptUnit registers (cudaHostRegister)
  /// memory of the origin whose key is \p OriginKey.
  bool registered(llvm::StringRef OriginKey, llvm::StringRef ExceptUnit) const;
  /// True if a unit other than \p ExceptUnit registers a std::vector's or
  /// std::string's storage.
  bool registersContainerStorage(llvm::StringRef ExceptUnit) const;
  /// True if the store holds every unit of a program (a whole compilation
  /// database, or all the shards of one): then the calls it lists are every
  /// call of a function, and parameters may take their provenance.
  bool holdsEveryCaller() const { return EveryCaller; }
  /// The shard of a database this store is of, if it is one's.
  const std::optional<ShardOf> &shard() const { return Shard; }

private:
  struct Unit;
  llvm::Error addUnit(llvm::json::Object Object);
  llvm::Expected<PointerValue> value(const llvm::json::Value *V,
                                     llvm::StringRef Where);
  const ExternalOrigin *origin(ExternalOrigin O);
  /// The units listed in \p Index under \p Key, but \p Except.
  template <class Fn>
  void
  forOtherUnits(const llvm::StringMap<llvm::SmallVector<unsigned, 1>> &Index,
                llvm::StringRef Key, llvm::StringRef Except, Fn F) const;

  bool EveryCaller = false;
  /// Keep each unit's document (Raw), for toJSON().
  bool Document = true;
  std::optional<ShardOf> Shard;
  /// A deque: a json::Object is copied, not moved, where a vector grows.
  std::deque<llvm::json::Object> Raw;
  std::vector<std::unique_ptr<Unit>> Units;
  llvm::StringSet<> Files;
  /// Per USR (or origin key), the units that define the function, store
  /// into the field, call the function, name it other than as a callee,
  /// register the origin, in the order of Units: a question costs the units
  /// it concerns, not the program.
  llvm::StringMap<llvm::SmallVector<unsigned, 1>> Defining, Storing, Calling,
      Naming, Registering;
  /// The units that register a container's storage.
  std::vector<unsigned> RegisteringContainers;
  /// Every origin once: equal origins are equal pointers.
  llvm::StringMap<std::unique_ptr<ExternalOrigin>> Origins;
};

/// The program as one translation unit sees it: every other unit's
/// summaries (a unit never reads its own entry, so a stale store cannot
/// contradict the body being analysed). Without installed summaries it
/// knows nothing.
class ProgramView {
public:
  /// Draws on the program's summaries installed now, if any.
  explicit ProgramView(const clang::SourceManager &SM);

  explicit operator bool() const {
    return noted(Program != nullptr, ProgramQuestion::Kind::Installed);
  }
  /// The facts of \p FD (a function with external linkage in user code)
  /// from the unit that defines it. Not recorded: what the analysis takes
  /// of them is, by note().
  const FunctionFacts *facts(const clang::FunctionDecl *FD);
  /// Records the question \p What (Returns, OutParam, CallEffect, Syncs)
  /// about \p FD, of \p Shape or parameter \p Index, with the answer its
  /// facts give (answerAbout): the analysis took that much of them.
  void note(const clang::FunctionDecl *FD, ProgramQuestion::Kind What,
            llvm::StringRef Shape = "", unsigned Index = 0);
  /// The same question held until a value made from its answer is read
  /// (ProgramQueries::pending), or recorded \p Now too; the number such a
  /// value carries, or none if nothing is recorded or \p FD is not a
  /// function the program answers for.
  std::optional<unsigned> answerNumber(const clang::FunctionDecl *FD,
                                       ProgramQuestion::Kind What, bool Now,
                                       llvm::StringRef Shape = "",
                                       unsigned Index = 0);
  bool holdsEveryCaller() const {
    return noted(Program && Program->holdsEveryCaller(),
                 ProgramQuestion::Kind::EveryCaller);
  }
  PointerValue field(llvm::StringRef Usr) const;
  PointerValue argument(llvm::StringRef Usr, unsigned Index) const;
  /// The program's answers for a unit that makes no call of the function,
  /// or no store into the field (ProgramSummaries::parameter, stored).
  PointerValue parameter(llvm::StringRef Usr, unsigned Index) const;
  PointerValue stored(llvm::StringRef Usr) const;
  bool notOnlyCalled(llvm::StringRef Usr) const;
  bool registered(llvm::StringRef OriginKey) const;
  bool registersContainerStorage() const;

private:
  /// Records \p Answer to the question \p What, \p Key, \p Index, where a
  /// record is kept, as answer() (ProgramQueries.h) renders it.
  template <class T>
  T noted(T Answer, ProgramQuestion::Kind What, llvm::StringRef Key = "",
          unsigned Index = 0) const;
  /// \p Answer to the question \p What, \p Key, \p Index, made from it:
  /// recorded where a reader reads it (ProgramQueries::pending). \p Grows:
  /// a join over the program's units.
  PointerValue taken(PointerValue Answer, ProgramQuestion::Kind What,
                     bool Grows, llvm::StringRef Key, unsigned Index = 0) const;

  const clang::SourceManager &SM;
  std::shared_ptr<const ProgramSummaries> Program;
  /// Where the questions asked are recorded (ProgramQueries.h), or null.
  ProgramQueries *Record;
  /// This unit's name in the store.
  std::string ThisUnit;
  /// Each answer once: a field's join costs the units that store into it,
  /// and the dataflow asks at every read.
  /// Each function's facts and USR, looked up once.
  struct Function {
    const FunctionFacts *Facts = nullptr;
    std::string Usr;
  };
  const Function *lookup(const clang::FunctionDecl *FD);
  llvm::DenseMap<const clang::FunctionDecl *, Function> Functions;
  mutable llvm::StringMap<PointerValue> Fields;
  mutable std::map<std::pair<std::string, unsigned>, PointerValue> Arguments,
      Parameters;
  mutable llvm::StringMap<PointerValue> Stored;
  mutable llvm::StringMap<bool> NotOnlyCalled, Registered;
  mutable std::optional<bool> RegistersContainers;
};

/// Makes \p Summaries the program every translation unit analysed from now
/// on draws on (null: none). The driver sets the summaries of its own first
/// phase; they win over a SummaryStore option.
void setProgramSummaries(std::shared_ptr<const ProgramSummaries> Summaries,
                         bool FromDriver);

/// The program the current translation unit draws on, or null.
std::shared_ptr<const ProgramSummaries> programSummaries();

/// While it lives, no program is installed: a unit's summary is made from
/// the unit alone (docs/design.md, "One hop"), whatever store is in effect
/// for its analysis.
class WithoutProgramSummaries {
public:
  WithoutProgramSummaries();
  ~WithoutProgramSummaries();
  WithoutProgramSummaries(const WithoutProgramSummaries &) = delete;
  WithoutProgramSummaries &operator=(const WithoutProgramSummaries &) = delete;

private:
  std::shared_ptr<const ProgramSummaries> Saved;
  bool SavedFromDriver;
};

/// The SummaryStore option of a check (clang-tidy with the plugin): reads
/// the store at \p Path once, and makes it the program's unless the driver
/// set its own. An error says why it cannot be used.
llvm::Error useSummaryStore(llvm::StringRef Path);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_SUMMARIES_PROGRAMSUMMARIES_H
