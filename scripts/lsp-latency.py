#!/usr/bin/env python3
"""Latency of `cuda-async-lint --lsp`: from a document's open, and from its
save, to its diagnostics.

usage: lsp-latency.py [--repeat N] [--lint PATH] FILE... [-- SERVER_ARGS]

Starts one server (--lsp --lsp-debounce=0, plus SERVER_ARGS: -p DIR, say),
opens each FILE with its text, waits for its publishDiagnostics, then sends
didSave N times, each time waiting for the next. Prints a Markdown table:
file, lines, diagnostics, open -> diagnostics, median save -> diagnostics.
"""
import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import time
import urllib.parse


class Client:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.buffer = b""

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def receive(self):
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end >= 0:
                length = int(self.buffer[:end].split(b":")[1])
                if len(self.buffer) >= end + 4 + length:
                    body = self.buffer[end + 4:end + 4 + length]
                    self.buffer = self.buffer[end + 4 + length:]
                    return json.loads(body)
            select.select([self.proc.stdout], [], [], 600)
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                sys.exit("the server closed its output")
            self.buffer += chunk

    def diagnostics_of(self, uri):
        while True:
            m = self.receive()
            if (m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == uri):
                return m["params"]["diagnostics"]


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--lint", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "bin",
        "cuda-async-lint"))
    p.add_argument("files", nargs="+")
    args = p.parse_args(argv)
    client = Client([args.lint, "--lsp", "--lsp-debounce=0"] + extra)
    client.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"processId": None, "capabilities": {}}})
    client.receive()
    client.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    print("| file | lines | diagnostics | open -> diagnostics (ms) | "
          "save -> diagnostics, median of %d (ms) |" % args.repeat)
    print("| --- | --- | --- | --- | --- |")
    for path in args.files:
        path = os.path.abspath(path)
        text = open(path, errors="replace").read()
        uri = "file://" + urllib.parse.quote(path)
        start = time.perf_counter()
        client.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                     "params": {"textDocument": {
                         "uri": uri, "languageId": "cuda", "version": 1,
                         "text": text}}})
        found = client.diagnostics_of(uri)
        opened = time.perf_counter() - start
        saves = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            client.send({"jsonrpc": "2.0", "method": "textDocument/didSave",
                         "params": {"textDocument": {"uri": uri}}})
            client.diagnostics_of(uri)
            saves.append(time.perf_counter() - start)
        print("| %s | %d | %d | %.0f | %.0f |" % (
            os.path.relpath(path), text.count("\n"), len(found),
            1e3 * opened, 1e3 * statistics.median(saves)))
    client.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    client.receive()
    client.send({"jsonrpc": "2.0", "method": "exit"})
    client.proc.wait(timeout=60)


if __name__ == "__main__":
    main()
