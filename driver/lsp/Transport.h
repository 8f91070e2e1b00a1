//===- Transport.h - JSON-RPC messages over a byte stream -------*- C++ -*-===//
//
// The Language Server Protocol's base protocol: each message is a header
// block ("Content-Length: N", CRLF-separated, ended by an empty line) and N
// bytes of JSON-RPC 2.0. The reader is fed whatever bytes arrive and hands
// out whole messages, so that the server's loop never blocks on a half
// message; a message that is not JSON is reported, and the stream goes on.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_LSP_TRANSPORT_H
#define CUDA_ASYNC_LINT_DRIVER_LSP_TRANSPORT_H

#include "llvm/Support/JSON.h"
#include <optional>
#include <string>
#include <variant>

namespace cuda_async_lint::lsp {

/// JSON-RPC's and the LSP's error codes.
enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
};

/// What the reader found next: a message, or why some bytes were not one.
struct BadMessage {
  std::string Why;
};
using Incoming = std::variant<llvm::json::Value, BadMessage>;

class MessageReader {
public:
  /// Appends bytes read from the stream.
  void feed(llvm::StringRef Bytes) { Buffer.append(Bytes); }
  /// The next whole message, if one has arrived.
  std::optional<Incoming> next();

private:
  std::string Buffer;
};

/// \p Message framed for the stream.
std::string frame(const llvm::json::Value &Message);

/// A response to request \p Id: its result, or an error.
llvm::json::Value response(const llvm::json::Value &Id,
                           llvm::json::Value Result);
llvm::json::Value errorResponse(const llvm::json::Value &Id, ErrorCode Code,
                                llvm::StringRef Message);
llvm::json::Value notification(llvm::StringRef Method,
                               llvm::json::Value Params);

} // namespace cuda_async_lint::lsp

#endif // CUDA_ASYNC_LINT_DRIVER_LSP_TRANSPORT_H
