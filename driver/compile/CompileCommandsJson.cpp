//===- CompileCommandsJson.cpp --------------------------------------------===//

#include "CompileCommandsJson.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

namespace {

/// llvm::json's "[L:C, byte=B]: message" as "line L, column C: message".
std::string describeParseError(llvm::Error E) {
  std::string Text = llvm::toString(std::move(E));
  llvm::StringRef Rest(Text);
  llvm::StringRef Line, Column;
  if (Rest.consume_front("[")) {
    std::tie(Line, Rest) = Rest.split(':');
    std::tie(Column, Rest) = Rest.split(',');
    Rest = Rest.split("]: ").second;
    if (!Line.empty() && !Column.empty() && !Rest.empty())
      return "line " + Line.str() + ", column " + Column.str() + ": " +
             Rest.str();
  }
  return Text;
}

/// What is wrong with one entry, or an empty string.
std::string entryProblem(const llvm::json::Value &Entry) {
  const llvm::json::Object *O = Entry.getAsObject();
  if (!O)
    return "is not an object";
  std::optional<llvm::StringRef> File = O->getString("file");
  if (!File)
    return "has no \"file\" string";
  std::optional<llvm::StringRef> Directory = O->getString("directory");
  if (!Directory)
    return "has no \"directory\" string";
  if (!llvm::sys::path::is_absolute(*Directory))
    return "has the relative \"directory\" '" + Directory->str() +
           "'; the format asks for an absolute path, which CMake, Bear and "
           "Ninja write";
  if (O->getString("command"))
    return "";
  const llvm::json::Array *Arguments = O->getArray("arguments");
  if (!Arguments)
    return "has neither a \"command\" string nor an \"arguments\" array";
  for (const llvm::json::Value &A : *Arguments)
    if (!A.getAsString())
      return "has an \"arguments\" element that is not a string";
  return "";
}

} // namespace

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readCompileCommandsJson(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError("cannot read '%s': %s", Path.str().c_str(),
                                   Buffer.getError().message().c_str());
  llvm::Expected<llvm::json::Value> Doc =
      llvm::json::parse((*Buffer)->getBuffer());
  if (!Doc)
    return llvm::createStringError(
        "cannot load '%s': not valid JSON at %s (truncated or half written? "
        "regenerate it)",
        Path.str().c_str(), describeParseError(Doc.takeError()).c_str());
  const llvm::json::Array *Entries = Doc->getAsArray();
  if (!Entries)
    return llvm::createStringError(
        "cannot load '%s': not a compilation database (expected a JSON array "
        "of compile commands)",
        Path.str().c_str());
  for (size_t I = 0; I < Entries->size(); ++I) {
    std::string Problem = entryProblem((*Entries)[I]);
    if (Problem.empty())
      continue;
    std::string Which = "entry " + std::to_string(I + 1);
    if (const llvm::json::Object *O = (*Entries)[I].getAsObject())
      if (std::optional<llvm::StringRef> File = O->getString("file"))
        Which += " (file '" + File->str() + "')";
    return llvm::createStringError("cannot load '%s': %s %s",
                                   Path.str().c_str(), Which.c_str(),
                                   Problem.c_str());
  }
  return std::move(*Buffer);
}

} // namespace cuda_async_lint
