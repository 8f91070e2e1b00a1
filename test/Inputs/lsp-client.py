"""Drives `cuda-async-lint --lsp` through a recorded exchange.

usage: lsp-client.py SCRIPT DIR -- SERVER_COMMAND...

SCRIPT holds one step per line (blank lines and '#' lines skipped), with
@DIR@ replaced by DIR and @URI@ by DIR's file:// URI:
  send JSON            a message, framed with its Content-Length
  raw TEXT             bytes as they are (\\r\\n escapes), framed or not
  frame TEXT           TEXT framed as a message's body (malformed JSON, say)
  file NAME TEXT       read DIR/NAME's text into the JSON string @TEXT@ (for
                       didOpen), TEXT a sed-like s/old/new/ edit or '-'
  wait-response ID     read until the response to request ID
  wait-diagnostics N   read until the N-th publishDiagnostics
  wait-exit            wait for the server to exit, and print its status
Every message the server sends is printed on one line, keys sorted, as
"<- JSON"; the server's stderr goes to this script's stderr. A wait that
takes longer than 60 seconds fails the script.
"""
import json
import os
import select
import subprocess
import sys
import time
import urllib.parse


def main():
    script, root = sys.argv[1], os.path.abspath(sys.argv[2])
    command = sys.argv[sys.argv.index("--") + 1:]
    uri = "file://" + urllib.parse.quote(root)
    server = subprocess.Popen(command, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)
    buffered = b""
    diagnostics = 0
    text = ""

    def send_bytes(data):
        server.stdin.write(data)
        server.stdin.flush()

    def send_body(body):
        data = body.encode()
        send_bytes(b"Content-Length: %d\r\n\r\n" % len(data) + data)

    def read_message(deadline):
        nonlocal buffered
        while True:
            end = buffered.find(b"\r\n\r\n")
            if end >= 0:
                headers = buffered[:end].decode()
                length = int([h.split(":")[1] for h in headers.split("\r\n")
                              if h.lower().startswith("content-length")][0])
                if len(buffered) >= end + 4 + length:
                    body = buffered[end + 4:end + 4 + length]
                    buffered = buffered[end + 4 + length:]
                    message = json.loads(body)
                    print("<- " + json.dumps(message, sort_keys=True))
                    sys.stdout.flush()
                    return message
            left = deadline - time.monotonic()
            if left <= 0:
                sys.exit("lsp-client: no message within the time")
            ready, _, _ = select.select([server.stdout], [], [], left)
            if ready:
                chunk = os.read(server.stdout.fileno(), 65536)
                if not chunk:
                    sys.exit("lsp-client: the server closed its output")
                buffered += chunk

    for line in open(script):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        verb, _, rest = line.partition(" ")
        rest = rest.replace("@DIR@", root).replace("@URI@", uri)
        rest = rest.replace("@TEXT@", json.dumps(text)[1:-1])
        deadline = time.monotonic() + 60
        if verb == "send":
            print("-> " + rest)
            send_body(rest)
        elif verb == "raw":
            print("-> (raw) " + rest)
            send_bytes(rest.replace("\\r\\n", "\r\n").encode())
        elif verb == "frame":
            print("-> (framed) " + rest)
            send_body(rest)
        elif verb == "file":
            name, _, edit = rest.partition(" ")
            with open(os.path.join(root, name)) as f:
                text = f.read()
            if edit != "-":
                _, old, new, _ = edit.split("/")
                text = text.replace(old, new)
        elif verb == "wait-response":
            while True:
                m = read_message(deadline)
                if "method" not in m and str(m.get("id")) == rest:
                    break
        elif verb == "wait-diagnostics":
            while diagnostics < int(rest):
                m = read_message(deadline)
                if m.get("method") == "textDocument/publishDiagnostics":
                    diagnostics += 1
        elif verb == "wait-exit":
            try:
                status = server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
                sys.exit("lsp-client: the server did not exit")
            print("exit status: %d" % status)
        else:
            sys.exit("lsp-client: unknown step: " + line)


if __name__ == "__main__":
    main()
