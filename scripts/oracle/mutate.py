"""Mutants by rule: every single edit of each kind at every site it applies.

Each kind makes one bug of one check, the API names coming from the
catalog (catalog.py):

  delete-wait       a wait (stream, event, device, cudaStreamWaitEvent and
                    the driver API's) becomes its success value
                    -> cuda-async-unsynchronized-access
  pinned-to-malloc  a pinned allocation becomes malloc, and the release of
  pinned-to-new     the same pointer in the file free (or, in C++, new[]
                    and delete[])              -> cuda-async-pageable-copy
  free-pinned       a pinned release becomes free (or, in C++, delete[])
  delete-pinned                                     -> dealloc-mismatch
  legacy-stream     the stream of a copy, memset, launch, host function or
                    library handle becomes the legacy stream (0)
                    -> cuda-async-default-stream
  wait-into-loop    a wait after a loop that issues work moves to the end
                    of that loop's body            -> cuda-async-sync-in-loop
  pin-into-loop     a pinned allocation or registration before a loop that
                    uses the memory and issues work moves to the start of
                    its body
                    -> cuda-async-pinned-alloc-in-loop
  drop-unregister   a cudaHostUnregister becomes its success value
                    -> cuda-async-host-register-leak

Every edit keeps the file's line numbers: what moves is joined onto the
line it lands on and blanked where it was, so that a finding's line in the
mutant is the pristine file's line.
"""
import hashlib
import re

from catalog import Catalog
from source import IDENT, Source

CHECKS = {
    "delete-wait": "cuda-async-unsynchronized-access",
    "pinned-to-malloc": "cuda-async-pageable-copy",
    "pinned-to-new": "cuda-async-pageable-copy",
    "free-pinned": "cuda-async-dealloc-mismatch",
    "delete-pinned": "cuda-async-dealloc-mismatch",
    "legacy-stream": "cuda-async-default-stream",
    "wait-into-loop": "cuda-async-sync-in-loop",
    "pin-into-loop": "cuda-async-pinned-alloc-in-loop",
    "drop-unregister": "cuda-async-host-register-leak",
}

# Stream arguments that already name the legacy (or per-thread) stream.
DEFAULT_STREAMS = re.compile(
    r"^\(?\s*(0|NULL|nullptr|0L|cudaStreamLegacy|cudaStreamPerThread|"
    r"CU_STREAM_LEGACY|CU_STREAM_PER_THREAD|\(\s*cudaStream_t\s*\)\s*0|"
    r"cudaStream_t\s*\(\s*0?\s*\)|\{\s*\})\s*\)?$")


def pointer_of(text, out=False):
    """What a release's argument names, without casts, or (`out`) the
    pointer an allocation's out-argument points to: '(void **)&h_a' ->
    'h_a', '(void **)pp_a' -> '*pp_a'."""
    t = re.sub(r"\s+", "", text)
    while True:
        m = re.match(r"^\((?:const)?(?:void|char|unsigned|float|double|int|"
                     r"\w+)\*+\)(.*)$", t) or re.match(
            r"^(?:reinterpret_cast|static_cast)<[^<>]*>\((.*)\)$", t)
        if not m:
            break
        t = m.group(1)
    if out:
        t = t[1:] if t.startswith("&") else "*" + t
    while t.startswith("(") and t.endswith(")"):
        t = t[1:-1]
    return t


class Generator:
    def __init__(self, catalog=None):
        self.cat = catalog or Catalog()
        self.waits = self.cat.waits
        self.allocs = self.cat.pinned_allocations
        self.releases = self.cat.pinned_releases
        self.registers = self.cat.registrations
        self.unregisters = self.cat.unregistrations
        self.work = self.cat.stream_work

    def mutants(self, program, path, text):
        src = Source(text)
        out = []

        def add(kind, api, at, edits):
            edits = sorted(edits)
            key = "\0".join([program, path, kind] +
                            ["%d:%d:%s" % e for e in edits])
            out.append({
                "id": hashlib.sha256(key.encode("latin-1")).hexdigest()[:12],
                "program": program, "file": path, "kind": kind,
                "check": CHECKS[kind], "api": api, "line": src.line(at),
                "edits": [list(e) for e in edits]})

        for name, start, paren, close in src.calls(self.waits):
            add("delete-wait", name, start,
                [(start, close + 1, self.waits[name].success)])
            self._wait_into_loop(src, add, name, start, close)

        release_sites = list(src.calls(self.releases))
        for name, start, paren, close in src.calls(self.allocs):
            self._to_pageable(src, add, name, start, paren, close,
                              release_sites, path.endswith(".c"))
            self._into_loop(src, add, name, start, paren, close,
                            self.allocs[name])
        for name, start, paren, close in release_sites:
            args = src.arguments(paren, close)
            if len(args) != 1:
                continue
            arg = text[args[0][0]:args[0][1]]
            add("free-pinned", name, start,
                [(start, close + 1, "(free(%s), %s)" %
                  (arg, self.releases[name].success))])
            if not path.endswith(".c"):
                add("delete-pinned", name, start,
                    [(start, close + 1, "(delete[] (char *)(%s), %s)" %
                      (arg, self.releases[name].success))])
        for name, start, paren, close in src.calls(self.registers):
            self._into_loop(src, add, name, start, paren, close,
                            self.registers[name])
        for name, start, paren, close in src.calls(self.unregisters):
            add("drop-unregister", name, start,
                [(start, close + 1, self.unregisters[name].success)])

        streamed = dict(self.work)
        for setter in self.cat.library_setters:
            streamed[setter] = None
        for name, start, paren, close in src.calls(streamed):
            args = src.arguments(paren, close)
            index = 1 if streamed[name] is None else \
                streamed[name].role("stream")
            if index is not None and index < len(args):
                self._legacy(src, add, name, start, args[index])
        for start, end, config in src.launches():
            if len(config) == 4:
                self._legacy(src, add, "<<<>>>", start, config[3])
        return out

    def _legacy(self, src, add, name, at, arg):
        text = src.text[arg[0]:arg[1]]
        if DEFAULT_STREAMS.match(re.sub(r"\s+", " ", text).strip()):
            return
        add("legacy-stream", name, at, [(arg[0], arg[1], "0")])

    def _to_pageable(self, src, add, name, start, paren, close, releases,
                     c_file):
        """The pinned allocation as malloc (and, in C++, as new[]), with
        the release of the same pointer in the file to match."""
        api = self.allocs[name]
        args = src.arguments(paren, close)
        out, size = api.role("out"), api.role("size")
        if out is None or size is None or max(out, size) >= len(args):
            return
        out_text = src.text[args[out][0]:args[out][1]]
        size_text = src.text[args[size][0]:args[size][1]]
        pointer = pointer_of(out_text, out=True)
        paired = []
        for rname, rstart, rparen, rclose in releases:
            rargs = src.arguments(rparen, rclose)
            if len(rargs) == 1 and pointer_of(
                    src.text[rargs[0][0]:rargs[0][1]]) == pointer:
                paired.append((rname, rstart, rclose,
                               src.text[rargs[0][0]:rargs[0][1]]))
        if pointer.startswith("*"):
            forms = [("pinned-to-malloc", "*(void **)(%s) = malloc(%s)" % (
                out_text, size_text), "free(%s)")]
        elif c_file:
            forms = [("pinned-to-malloc", "%s = malloc(%s)" % (
                pointer, size_text), "free(%s)")]
        else:
            # As a user writes it: the pointer assigned the memory. The
            # pointer's type is decltype(p + 0): decltype(v[i]) would be a
            # reference.
            forms = [("pinned-to-malloc",
                      "%s = (decltype(%s + 0))malloc(%s)" % (
                          pointer, pointer, size_text), "free(%s)"),
                     ("pinned-to-new",
                      "%s = (decltype(%s + 0))new char[%s]" % (
                          pointer, pointer, size_text),
                      "delete[] (char *)(%s)")]
        for kind, assign, release in forms:
            edits = [(start, close + 1, "(%s, %s)" % (assign, api.success))]
            for rname, rstart, rclose, arg in paired:
                edits.append((rstart, rclose + 1, "(%s, %s)" % (
                    release % arg, self.releases[rname].success)))
            add(kind, name, start, edits)

    def _wait_into_loop(self, src, add, name, start, close):
        """The wait statement after a loop that issues work, moved to the
        end of that loop's body."""
        stmt = src.statement(start, close + 1)
        block = src.block_of(start)
        if stmt is None or block is None:
            return
        loops = list(src.loops_in(block, before=stmt[0]))
        if not loops:
            return
        keyword, body_open, body_close = loops[-1]
        if not self._issues_work(src.code[body_open:body_close]):
            return
        moved = re.sub(r"\s*\n\s*", " ", src.code[stmt[0]:stmt[1]])
        add("wait-into-loop", name, body_close,
            [(stmt[0], stmt[1], re.sub(r"[^\n]", " ",
                                       src.text[stmt[0]:stmt[1]])),
             (body_close, body_close, moved + " ")])

    def _issues_work(self, code):
        """Whether `code` puts work on a stream: a launch, or a call of the
        catalog's stream work or a library's."""
        return "<<<" in code or any(
            re.search(r"\b%s\s*\(" % re.escape(w), code)
            for w in list(self.work) + list(self.cat.library_setters))

    def _into_loop(self, src, add, name, start, paren, close, api):
        """The allocation or registration statement before a loop that
        uses its memory and issues work (and nothing between uses the
        memory), moved to the start of the loop's body."""
        stmt = src.statement(start, close + 1)
        block = src.block_of(start)
        args = src.arguments(paren, close)
        role = api.role("out") if api.role("out") is not None else \
            api.role("ptr")
        if stmt is None or block is None or role is None or \
                role >= len(args):
            return
        pointer = pointer_of(src.text[args[role][0]:args[role][1]],
                             out=api.role("out") is not None).lstrip("*")
        if not IDENT.fullmatch(pointer.split(".")[-1].split("->")[-1]):
            return
        uses = re.compile(r"(?<![\w.])%s\b" % re.escape(pointer))
        for keyword, body_open, body_close in src.loops_in(block,
                                                           after=stmt[1]):
            if uses.search(src.code[stmt[1]:keyword]):
                return
            body = src.code[body_open:body_close]
            if not uses.search(body) or not self._issues_work(body):
                continue
            moved = re.sub(r"\s*\n\s*", " ", src.code[stmt[0]:stmt[1]])
            add("pin-into-loop", name, body_open,
                [(stmt[0], stmt[1], re.sub(r"[^\n]", " ",
                                           src.text[stmt[0]:stmt[1]])),
                 (body_open + 1, body_open + 1, " " + moved)])
            return


def apply(text, edits):
    """`text` with `edits` ([start, end, replacement]) made."""
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def main(argv):
    """mutate.py FILE...: each mutant of each file, as the lines it
    changes, for reading and for test/driver/oracle-mutants.test."""
    gen = Generator()
    for path in argv:
        text = open(path, encoding="latin-1").read()
        old = text.split("\n")
        for m in gen.mutants("-", path, text):
            new = apply(text, m["edits"]).split("\n")
            assert len(new) == len(old), "a mutant moved lines"
            print("%s %s %s:%d" % (m["kind"], m["api"], path, m["line"]))
            for n, (a, b) in enumerate(zip(old, new), 1):
                if a != b:
                    print("  %d: %s" % (n, b.strip() or "<blank>"))
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
