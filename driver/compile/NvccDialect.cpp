//===- NvccDialect.cpp - nvcc-only syntax presented as clang's ------------===//

#include "NvccDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace cuda_async_lint {

namespace {

bool isIdentifierChar(char C) { return isAlnum(C) || C == '_' || C == '$'; }

/// A forward scanner over C++ source that steps over comments and literals
/// as whole tokens, so that the launch syntax is looked for in code only.
class Scanner {
public:
  explicit Scanner(StringRef Text) : Text(Text) {}

  size_t size() const { return Text.size(); }
  char at(size_t I) const { return I < Text.size() ? Text[I] : '\0'; }

  /// The offset just past the comment, literal, identifier or number that
  /// starts at \p I, or \p I + 1 for any other character.
  size_t skipToken(size_t I) const {
    char C = at(I);
    char Next = at(I + 1);
    if (C == '/' && Next == '/')
      return skipLineComment(I + 2);
    if (C == '/' && Next == '*') {
      size_t End = Text.find("*/", I + 2);
      return End == StringRef::npos ? Text.size() : End + 2;
    }
    if (C == '"' || C == '\'')
      return skipQuoted(I, C);
    if (isDigit(C))
      return skipNumber(I);
    if (isIdentifierChar(C)) {
      size_t J = I;
      while (J < Text.size() && isIdentifierChar(Text[J]))
        ++J;
      // A raw string: R"delim( ... )delim", with any encoding prefix.
      if (at(J) == '"' && Text[J - 1] == 'R')
        return skipRawString(J);
      return J;
    }
    return I + 1;
  }

  /// The offset of whitespace's and comments' end from \p I.
  size_t skipSpace(size_t I) const {
    while (I < Text.size()) {
      if (isSpace(Text[I]))
        ++I;
      else if (Text[I] == '/' && (at(I + 1) == '/' || at(I + 1) == '*'))
        I = skipToken(I);
      else
        break;
    }
    return I;
  }

private:
  size_t skipLineComment(size_t I) const {
    while (I < Text.size() && Text[I] != '\n')
      I += Text[I] == '\\' ? 2 : 1;
    return std::min(I, Text.size());
  }
  size_t skipQuoted(size_t I, char Quote) const {
    size_t J = I + 1;
    while (J < Text.size() && Text[J] != Quote && Text[J] != '\n')
      J += Text[J] == '\\' ? 2 : 1;
    return std::min(J + 1, Text.size());
  }
  size_t skipRawString(size_t Quote) const {
    size_t Open = Text.find('(', Quote);
    if (Open == StringRef::npos)
      return Text.size();
    std::string Close = (")" + Text.slice(Quote + 1, Open) + "\"").str();
    size_t End = Text.find(Close, Open);
    return End == StringRef::npos ? Text.size() : End + Close.size();
  }
  /// A pp-number, digit separators (1'000) and exponent signs included.
  size_t skipNumber(size_t I) const {
    size_t J = I + 1;
    while (J < Text.size()) {
      char C = Text[J];
      if ((C == '+' || C == '-') && strchr("eEpP", Text[J - 1]))
        ++J;
      else if (isIdentifierChar(C) || C == '.' ||
               (C == '\'' && isAlnum(at(J + 1))))
        ++J;
      else
        break;
    }
    return J;
  }

  StringRef Text;
};

/// The offset of the bracket that closes the one at \p Open ('(', '[' or
/// '{'), or npos if the text ends or a ';' at its depth comes first.
size_t matchingBracket(const Scanner &S, size_t Open) {
  int Depth = 0;
  for (size_t I = Open; I < S.size();) {
    char C = S.at(I);
    if (C == '(' || C == '[' || C == '{') {
      ++Depth;
    } else if (C == ')' || C == ']' || C == '}') {
      if (--Depth == 0)
        return I;
    } else if (C == ';') {
      return StringRef::npos;
    }
    I = S.skipToken(I);
  }
  return StringRef::npos;
}

/// The offset just past three \p C ('<' or '>') spelled with whitespace
/// between them ('<< <', '< <<', '< < <'), as a formatter that does not
/// know CUDA writes a launch's chevrons, starting at \p I; npos if the
/// text there is not such a triple (unspaced, fewer, or a fourth \p C or
/// an '=' right after it: a shift or a comparison).
size_t spacedTriple(StringRef Text, size_t I, char C) {
  unsigned Count = 0;
  bool Spaced = false;
  size_t J = I;
  while (Count < 3 && J < Text.size()) {
    if (Text[J] == C) {
      ++Count;
      ++J;
      continue;
    }
    if (Count == 0 || !isSpace(Text[J]))
      break;
    size_t K = J;
    while (K < Text.size() && isSpace(Text[K]))
      ++K;
    if (K == Text.size() || Text[K] != C)
      break;
    Spaced = true;
    J = K;
  }
  if (Count != 3 || !Spaced)
    return StringRef::npos;
  if (J < Text.size() && (Text[J] == C || Text[J] == '='))
    return StringRef::npos;
  return J;
}

/// Writes the spaced triple of \p C between \p Begin and \p End into
/// \p Out unspaced, its whitespace after it: '<< <' becomes '<<< ', the
/// same length, every character after it where it was.
void unspaceTriple(StringRef Text, size_t Begin, size_t End, char C,
                   std::string &Out) {
  std::string Space;
  for (size_t I = Begin; I < End; ++I)
    if (Text[I] != C)
      Space += Text[I];
  std::string Triple = std::string(3, C) + Space;
  Out.replace(Begin, End - Begin, Triple);
}

/// True if the text before \p I, whitespace aside, is the keyword
/// 'operator': 'operator<< <T>(...)' and 'operator< <T>' name a function
/// template's specialization, valid C++ that is no launch.
bool followsOperatorKeyword(StringRef Text, size_t I) {
  while (I > 0 && isSpace(Text[I - 1]))
    --I;
  StringRef Before = Text.take_front(I);
  if (!Before.ends_with("operator"))
    return false;
  return Before.size() == 8 || !isIdentifierChar(Before[Before.size() - 9]);
}

/// Rewrites in \p Out the braced arguments of the launch configuration
/// that starts after the '<<<' ending at \p Begin; returns where scanning
/// goes on, and sets \p Closed if the configuration's '>>>' was found.
/// With \p SpacedClose (the launch opened with spaced chevrons), a closing
/// '>> >' followed by '(' closes it too, and is written unspaced.
size_t rewriteLaunchConfiguration(const Scanner &S, StringRef Text,
                                  size_t Begin, std::string &Out, bool &Changed,
                                  bool SpacedClose, bool &Closed) {
  Closed = false;
  size_t I = Begin;
  bool ArgumentStart = true;
  while (I < S.size()) {
    if (ArgumentStart) {
      I = S.skipSpace(I);
      ArgumentStart = false;
      if (S.at(I) == '{') {
        size_t Close = matchingBracket(S, I);
        if (Close == StringRef::npos)
          return I + 1;
        // dim3{} is dim3(1, 1, 1): any value will do, the same length.
        if (Close == I + 1) {
          Out[I] = '1';
          Out[Close] = ' ';
        } else {
          Out[I] = '(';
          Out[Close] = ')';
        }
        Changed = true;
        I = Close + 1;
        continue;
      }
    }
    char C = S.at(I);
    if (C == '>' && S.at(I + 1) == '>' && S.at(I + 2) == '>') {
      Closed = true;
      return I + 3;
    }
    if (C == '>' && SpacedClose) {
      size_t End = spacedTriple(Text, I, '>');
      if (End != StringRef::npos && S.at(S.skipSpace(End)) == '(') {
        unspaceTriple(Text, I, End, '>', Out);
        Closed = true;
        return End;
      }
    }
    if (C == ',') {
      ArgumentStart = true;
      ++I;
      continue;
    }
    if (C == ';')
      return I;
    if (C == '(' || C == '[' || C == '{') {
      size_t Close = matchingBracket(S, I);
      if (Close == StringRef::npos)
        return I + 1;
      I = Close + 1;
      continue;
    }
    I = S.skipToken(I);
  }
  return I;
}

/// True if \p Text may hold '<' and '<' with only whitespace between: a
/// cheap test before the scan, which most files (and headers) fail.
bool mayHaveSpacedChevrons(StringRef Text) {
  for (size_t I = Text.find('<'); I != StringRef::npos;
       I = Text.find('<', I + 1)) {
    size_t J = I + 1;
    while (J < Text.size() && (Text[J] == ' ' || Text[J] == '\t' ||
                               Text[J] == '\n' || Text[J] == '\r'))
      ++J;
    if (J > I + 1 && J < Text.size() && Text[J] == '<')
      return true;
  }
  return false;
}

/// Blanks out 'extern "C"' in \p Out where the string literal at \p Quote
/// is '"C"' glued to a CUDA function qualifier ('extern "C"__global__'),
/// which C++11 would lex as a user-defined literal; true if it did.
bool unglueLinkage(StringRef Text, size_t Quote, std::string &Out) {
  if (!Text.substr(Quote).starts_with("\"C\"_"))
    return false;
  StringRef After = Text.substr(Quote + 3);
  if (!After.starts_with("__global__") && !After.starts_with("__device__") &&
      !After.starts_with("__host__"))
    return false;
  size_t End = Quote;
  while (End > 0 && isSpace(Text[End - 1]))
    --End;
  if (End < 6 || Text.substr(End - 6, 6) != "extern" ||
      (End > 6 && isIdentifierChar(Text[End - 7])))
    return false;
  for (size_t I = End - 6; I < Quote + 3; ++I)
    if (!isSpace(Out[I]))
      Out[I] = ' ';
  return true;
}

/// A file whose contents are a rewritten copy of another's; its status is
/// the original's, which the rewrite's equal length keeps true.
class RewrittenFile : public vfs::File {
public:
  RewrittenFile(vfs::Status Status, std::string RealName,
                std::unique_ptr<MemoryBuffer> Buffer)
      : Stat(std::move(Status)), RealName(std::move(RealName)),
        Buffer(std::move(Buffer)) {}

  ErrorOr<vfs::Status> status() override { return Stat; }
  // The name the file system resolved ('/usr/include/...' for
  // '/usr/bin/../lib/gcc/.../../../../include/...'): the FileManager takes
  // its real path from it, which the caches' inputs are keyed by.
  ErrorOr<std::string> getName() override { return RealName; }
  ErrorOr<std::unique_ptr<MemoryBuffer>> getBuffer(const Twine &Name, int64_t,
                                                   bool, bool) override {
    return MemoryBuffer::getMemBufferCopy(Buffer->getBuffer(),
                                          Buffer->getBufferIdentifier());
  }
  std::error_code close() override { return {}; }

private:
  vfs::Status Stat;
  std::string RealName;
  std::unique_ptr<MemoryBuffer> Buffer;
};

class NvccDialectFileSystem : public vfs::ProxyFileSystem {
public:
  NvccDialectFileSystem(IntrusiveRefCntPtr<vfs::FileSystem> Base,
                        std::shared_ptr<RewrittenFiles> Rewritten,
                        BlankedSpans Blanks)
      : ProxyFileSystem(std::move(Base)), Rewritten(std::move(Rewritten)),
        Blanks(std::move(Blanks)) {}

  ErrorOr<std::unique_ptr<vfs::File>>
  openFileForRead(const Twine &Path) override {
    auto File = ProxyFileSystem::openFileForRead(Path);
    if (!File)
      return File;
    ErrorOr<vfs::Status> Status = (*File)->status();
    if (!Status)
      return File;
    // Only regular files are read whole here: a FIFO or device would block.
    if (Status->getType() != sys::fs::file_type::regular_file)
      return File;
    auto Buffer = (*File)->getBuffer(Path, Status->getSize(),
                                     /*RequiresNullTerminator=*/true,
                                     /*IsVolatile=*/false);
    if (!Buffer)
      return Buffer.getError();
    std::optional<std::string> Text = rewriteNvccSyntax((*Buffer)->getBuffer());
    for (const BlankedFile &F : Blanks)
      if (F.ID == Status->getUniqueID()) {
        if (!Text)
          Text = (*Buffer)->getBuffer().str();
        blankSpans(*Text, F.Spans);
      }
    std::unique_ptr<MemoryBuffer> Contents =
        Text ? MemoryBuffer::getMemBufferCopy(*Text,
                                              (*Buffer)->getBufferIdentifier())
             : std::move(*Buffer);
    ErrorOr<std::string> RealName = (*File)->getName();
    std::string Name = RealName ? *RealName : Path.str();
    if (Text && Rewritten)
      Rewritten->insert(Name);
    return std::unique_ptr<vfs::File>(new RewrittenFile(
        std::move(*Status), std::move(Name), std::move(Contents)));
  }

private:
  std::shared_ptr<RewrittenFiles> Rewritten;
  BlankedSpans Blanks;
};

} // namespace

std::optional<std::string> rewriteNvccSyntax(StringRef Text) {
  if (!Text.contains("<<<") && !Text.contains("\"C\"_") &&
      !mayHaveSpacedChevrons(Text))
    return std::nullopt;
  Scanner S(Text);
  std::string Out = Text.str();
  bool Changed = false;
  for (size_t I = 0; I < Text.size();) {
    if (Text[I] == '"') {
      Changed |= unglueLinkage(Text, I, Out);
      I = S.skipToken(I);
      continue;
    }
    if (Text[I] != '<') {
      I = S.skipToken(I);
      continue;
    }
    // Exactly three: a longer run of '<' is a conflict marker.
    size_t Run = I;
    while (Run < Text.size() && Text[Run] == '<')
      ++Run;
    bool Closed = false;
    if (Run - I == 3) {
      I = rewriteLaunchConfiguration(S, Text, Run, Out, Changed,
                                     /*SpacedClose=*/false, Closed);
      continue;
    }
    // 'kernel << < grid, block >> > (args)': a launch whose chevrons a
    // formatter spaced. No '<' can follow '<<' in C++ but after the
    // keyword 'operator' (a specialization of operator<< or operator<).
    size_t End = Run - I < 3 ? spacedTriple(Text, I, '<') : StringRef::npos;
    if (End == StringRef::npos || followsOperatorKeyword(Text, I)) {
      I = Run;
      continue;
    }
    std::string Kept = Out;
    bool ChangedBefore = Changed;
    size_t Next = rewriteLaunchConfiguration(S, Text, End, Out, Changed,
                                             /*SpacedClose=*/true, Closed);
    if (Closed) {
      unspaceTriple(Text, I, End, '<', Out);
      Changed = true;
    } else {
      Out = std::move(Kept);
      Changed = ChangedBefore;
    }
    I = Closed ? Next : Run;
  }
  if (!Changed)
    return std::nullopt;
  return Out;
}

void blankSpans(std::string &Text, const std::vector<BlankedSpan> &Spans) {
  for (const BlankedSpan &S : Spans)
    for (size_t I = S.Offset; I < S.Offset + S.Length && I < Text.size(); ++I)
      if (Text[I] != '\n' && Text[I] != '\r')
        Text[I] = ' ';
}

IntrusiveRefCntPtr<vfs::FileSystem>
makeNvccDialectFileSystem(IntrusiveRefCntPtr<vfs::FileSystem> Base,
                          std::shared_ptr<RewrittenFiles> Rewritten,
                          BlankedSpans Blanks) {
  return makeIntrusiveRefCnt<NvccDialectFileSystem>(
      std::move(Base), std::move(Rewritten), std::move(Blanks));
}

} // namespace cuda_async_lint
