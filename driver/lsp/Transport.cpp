//===- Transport.cpp ------------------------------------------------------===//

#include "Transport.h"
#include "llvm/Support/FormatVariadic.h"

namespace cuda_async_lint::lsp {

std::optional<Incoming> MessageReader::next() {
  size_t End = Buffer.find("\r\n\r\n");
  if (End == std::string::npos) {
    // A header block never grows this large: what came is not the protocol
    // (a stray line, say). Drop it, and say so once.
    if (Buffer.size() > 64 * 1024) {
      Buffer.clear();
      return BadMessage{"a header block without its end (\\r\\n\\r\\n)"};
    }
    return std::nullopt;
  }
  llvm::StringRef Headers = llvm::StringRef(Buffer).take_front(End);
  std::optional<size_t> Length;
  llvm::SmallVector<llvm::StringRef> Lines;
  Headers.split(Lines, "\r\n");
  for (llvm::StringRef Line : Lines) {
    auto [Name, Value] = Line.split(':');
    size_t N = 0;
    if (Name.trim().equals_insensitive("Content-Length") &&
        !Value.trim().getAsInteger(10, N))
      Length = N;
  }
  if (!Length) {
    Buffer.erase(0, End + 4);
    return BadMessage{"a header block without a Content-Length"};
  }
  if (Buffer.size() < End + 4 + *Length)
    return std::nullopt;
  std::string Body = Buffer.substr(End + 4, *Length);
  Buffer.erase(0, End + 4 + *Length);
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Body);
  if (!Parsed)
    return BadMessage{"not JSON: " + llvm::toString(Parsed.takeError())};
  return Incoming(std::move(*Parsed));
}

std::string frame(const llvm::json::Value &Message) {
  std::string Body = llvm::formatv("{0}", Message).str();
  return llvm::formatv("Content-Length: {0}\r\n\r\n", Body.size()).str() + Body;
}

llvm::json::Value response(const llvm::json::Value &Id,
                           llvm::json::Value Result) {
  return llvm::json::Object{
      {"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}};
}

llvm::json::Value errorResponse(const llvm::json::Value &Id, ErrorCode Code,
                                llvm::StringRef Message) {
  return llvm::json::Object{
      {"jsonrpc", "2.0"},
      {"id", Id},
      {"error",
       llvm::json::Object{{"code", int(Code)}, {"message", Message.str()}}}};
}

llvm::json::Value notification(llvm::StringRef Method,
                               llvm::json::Value Params) {
  return llvm::json::Object{{"jsonrpc", "2.0"},
                            {"method", Method.str()},
                            {"params", std::move(Params)}};
}

} // namespace cuda_async_lint::lsp
