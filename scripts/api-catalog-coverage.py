#!/usr/bin/env python3
"""Checks that the API catalog is complete by rule: every function of a CUDA
toolkit's headers that the rules below select is catalogued, or excluded by
a documented decision (docs/api-catalog.md).

  scripts/api-catalog-coverage.py --scanner BUILD/bin/api-scan
      [--cuda-path /usr/local/cuda] [--catalog checks/api]
      [--exclusions docs/api-catalog/exclusions.tsv]
      [--pending docs/api-catalog/pending.tsv] [--verbose]
      [-- SCANNER ARGUMENTS...]

tools/api-scan lists every function the headers declare (one JSON object a
line: name, header, CUDA side, return and parameter types, and for each type
how many pointers deep it is and what is at the bottom); --scan FILE reads a
list written before instead of running it.

Which functions are looked at. A function host code can call (not __device__
only, not __global__), of the public API: no part of its qualified name
starts with an underscore or is a 'detail' namespace, and its header is not
under a detail/ directory (CCCL's and the libraries' implementation). Names
are compared as the catalog spells them: with the headers' renaming
suffixes stripped as CudaApiCatalog.cpp strips them (_ptsz or _ptds, then
_v2 or _v3). A
name's overloads (CUB's templates) are one candidate: it is selected if any
overload is.

The types the rules speak of:
  stream      a parameter of type cudaStream_t / CUstream (canonically
              CUstream_st *), NppStreamContext (NPP's _Ctx primitives: the
              stream is its hStream), or a library handle bound to a stream:
              a HandleType of GpuLibraryApis.def, or the first parameter of
              a function named ...SetStream(handle, stream) in the headers.
              Not a pointer to one (cudaStream_t *: an out-parameter).
  event       cudaEvent_t / CUevent (CUevent_st *).
  context     CUcontext (CUctx_st *) or CUgreenCtx (CUgreenCtx_st *).
  data pointer  a pointer, array or reference parameter whose innermost
              pointee (through every level: void ** counts) is data: void,
              an arithmetic type (signed or unsigned char included), an
              enum, a defined struct (cudaMemcpy3DParms, cuComplex), or a
              template parameter (CUB's KeyT *). Not plain char (const char *
              is a name, a path or an option string: text the call reads
              before it returns), not an incomplete struct (an opaque handle:
              cudaEvent_t *, ncclComm_t *), not a library handle type even
              where it is an integer (cufftHandle *), not a function.

The rules (a candidate may meet several):
  (a) enqueues on a stream with host-accessible memory: it takes a stream and
      a data pointer.
  (b) waits: its unqualified name has the word Synchronize, Sync, Wait or
      Query (CamelCase: cuStreamWaitValue32; snake_case: sync, wait), and it
      takes a stream, an event or a context, or takes no parameter at all
      (a wait for the device, context or thread: cudaDeviceSynchronize).
  (c) allocates, registers or releases host memory: its unqualified name has
      HostAlloc, HostMalloc, MallocHost, AllocHost, HostFree, FreeHost,
      HostRegister, HostUnregister or Pinned in it (cudaHostAlloc,
      cuMemAllocHost, cudaFreeHost, cuMemHostRegister, nvJPEG's
      nvjpegBufferPinnedCreate). Library allocators of device memory
      (ncclMemAlloc, nppiMalloc) are not host memory, and memory pools whose
      location is the host (cudaMemPoolCreate) are decided by their
      properties, not their name: neither is selected.

Covered. A candidate's rule is covered when
  - CudaApis.def, HipApis.def or HostCommunicationApis.def names the function
    (any rule: the row states what the call does);
  - for rule (a) only: its name has a GPU_LIBRARY_HANDLE's library prefix
    and it takes that row's HandleType (as checks/api/GpuLibrary.cpp reads
    the row), or its qualified name starts with a GPU_LIBRARY_STREAM_CALL
    prefix (those rows
    say the call enqueues work on a stream; they say nothing of waiting or
    of host memory);
  - or a row of the exclusions file (decided: not catalogued, with the
    reason) or of the pending file (decided: to catalogue, not yet done)
    matches it: its pattern (an fnmatch glob on the stripped qualified name)
    matches and its rule column names that rule (one or more of a, b, c).
Exit status 1 if a candidate's rule is covered by none of them, or if a row
of the exclusions or pending file covers no uncatalogued candidate (a stale
decision: the function is gone, or is catalogued now); 2 on a usage error or
if the scanner fails. Lines starting with 'note:' name catalog rows whose
role string has another length than a declaration of the same name (an
overload whose arguments sit elsewhere); they do not fail the check.
"""
import argparse
import collections
import fnmatch
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(message):
    """A usage error: exit status 2, as a scanner failure."""
    print("api-catalog-coverage: " + message, file=sys.stderr)
    sys.exit(2)

# Renaming suffixes the headers' macros add, stripped as CudaApiCatalog.cpp's
# baseName strips them (one per-thread suffix, then _v2 or _v3), so that a
# name is catalogued here exactly when the checks would find its row:
# cuMemcpyHtoDAsync -> cuMemcpyHtoDAsync_v2, cudaMemcpyAsync -> _ptsz.
PER_THREAD_SUFFIX = re.compile(r"(_ptsz|_ptds)$")
VERSION_SUFFIX = re.compile(r"_v[23]$")

# The catalog's macros; the first argument of each is the function's name
# (or, for GPU_LIBRARY_*, the library's prefix).
NAMED_ROWS = {"CUDA_COPY", "CUDA_MEMSET", "CUDA_ALLOC", "CUDA_RELEASE",
              "CUDA_REGISTER", "CUDA_UNREGISTER", "CUDA_CALL",
              "CUDA_LAUNCH_CONFIGURATION", "HOST_COMMUNICATION"}
ROW = re.compile(r"^\s*([A-Z_]+)\((.*)\)\s*$")

STREAM_TYPES = {"CUstream_st *"}
STREAM_RECORDS = {"NppStreamContext"}
EVENT_TYPES = {"CUevent_st *"}
CONTEXT_TYPES = {"CUctx_st *", "CUgreenCtx_st *"}
DATA_BASES = {"void", "arithmetic", "enum", "record", "dependent"}
# The driver API's addresses: unified addressing maps host memory into them.
DEVICE_ADDRESSES = {"CUdeviceptr"}

WAIT_WORDS = re.compile(
    r"(?:^|[a-z0-9_])(?:Synchronize|Sync|Wait|Query)(?=[A-Z0-9_]|$)"
    r"|(?:^|_)(?:synchronize|sync|wait|query)(?=_|$)")
HOST_MEMORY_WORDS = re.compile(
    r"HostAlloc|HostMalloc|MallocHost|AllocHost|HostFree|FreeHost"
    r"|HostRegister|HostUnregister|Pinned")

# Library names for the counts, by header (relative to the include dir).
LIBRARIES = [
    ("cuda_runtime_api.h", "CUDA runtime"), ("cuda_runtime.h", "CUDA runtime"),
    ("cuda.h", "CUDA driver"),
    ("cublasLt.h", "cuBLASLt"), ("cublasXt.h", "cuBLASXt"),
    ("cublas", "cuBLAS"), ("cusparse", "cuSPARSE"), ("cufft", "cuFFT"),
    ("curand", "cuRAND"), ("cusolver", "cuSOLVER"), ("npp", "NPP"),
    ("nvjpeg", "nvJPEG"), ("nccl", "NCCL"), ("cccl/cub/", "CUB"),
    ("cccl/thrust/", "Thrust"), ("cccl/cuda/", "libcu++"),
]


def library_of(header):
    for prefix, library in LIBRARIES:
        if header.startswith(prefix):
            return library
    return "other CUDA headers"


def strip_name(name):
    """The qualified name as the catalog spells it: no renaming suffix."""
    return VERSION_SUFFIX.sub("", PER_THREAD_SUFFIX.sub("", name))


def unqualified(name):
    return name.rsplit("::", 1)[-1]


def is_public(fn):
    """Host-callable and not an implementation detail."""
    if fn["cuda"] not in ("host", "host device"):
        return False
    if "detail" in fn["header"].split("/"):
        return False
    for part in re.split(r"::", re.sub(r"<.*>", "", fn["name"])):
        if part.startswith("_") or part == "detail" or part.endswith(
                "_detail"):
            return False
    return True


# The catalog.

def read_catalog(directory):
    """Names, handle types and prefixes the catalog's .def files list."""
    names, handles, prefixes, roles = {}, {}, [], {}
    for file in ("CudaApis.def", "HipApis.def", "CudaRuntimeOverloads.def",
                 "GpuLibraryCopies.def", "HostCommunicationApis.def",
                 "GpuLibraryApis.def"):
        with open(os.path.join(directory, file)) as f:
            for number, line in enumerate(f, 1):
                match = ROW.match(line)
                if not match or line.lstrip().startswith("#"):
                    continue
                macro = match.group(1)
                args = [a.strip() for a in match.group(2).split(",")]
                if macro in NAMED_ROWS:
                    names[args[0]] = "%s %s" % (file, macro)
                    # A name's rows, one per overload's parameter count
                    # (CudaRuntimeOverloads.def).
                    roles.setdefault(args[0], []).append(
                        len(args[-1].strip('"').split()))
                elif macro == "GPU_LIBRARY_HANDLE":
                    handles[args[1]] = args[0]  # type -> library prefix
                elif macro == "GPU_LIBRARY_STREAM_CALL":
                    prefixes.append(args[0])
                elif macro == "GPU_LIBRARY_POLICY_CALL":
                    # A namespace whose algorithms take their stream in an
                    # execution policy (Thrust's 'par.on(s)'): no parameter
                    # of theirs is a stream, so no rule selects them.
                    pass
                else:
                    fail("%s:%d: unknown catalog row %s"
                         % (file, number, macro))
    return names, handles, prefixes, roles


# The decisions.

Decision = collections.namedtuple(
    "Decision", "file line pattern rules decision reason")


def read_decisions(path):
    """Rows of a decisions file: pattern, rule(s), decision, reason."""
    rows = []
    if not path or not os.path.exists(path):
        return rows
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if (len(cols) != 4 or not cols[1] or
                    set(cols[1]) - set("abc") or not cols[3].strip()):
                fail("%s:%d: want pattern, rule (a, b or c), decision and "
                     "reason, tab-separated" % (path, number))
            rows.append(Decision(path, number, cols[0], set(cols[1]),
                                 cols[2], cols[3]))
    return rows


# The rules.

def bare(type_name):
    """A written type without const/volatile: 'const cublasHandle_t'."""
    return re.sub(r"\b(const|volatile)\b", "", type_name).strip()


def stripped_pointee(type_name):
    """The written type with its pointers and qualifiers taken off."""
    return bare(re.sub(r"[*&\[\]0-9]", " ", type_name))


class Rules:
    def __init__(self, handles):
        # Handle types bound to a stream: the catalog's, and any the headers
        # give a ...SetStream(handle, stream).
        self.handles = set(handles)

    def learn_setters(self, functions):
        derived = {}
        for fn in functions:
            params = fn["params"]
            if (unqualified(strip_name(fn["name"])).endswith("SetStream") and
                    len(params) == 2 and self.is_stream_type(params[1])):
                derived[bare(params[0]["type"])] = fn["name"]
        self.derived = {h: s for h, s in derived.items()
                        if h not in self.handles}
        self.handles |= set(derived)

    @staticmethod
    def is_stream_type(param):
        return bare(param["canonical"]) in STREAM_TYPES

    def is_stream(self, param):
        if self.is_stream_type(param):
            return True
        if stripped_pointee(param["canonical"]) in STREAM_RECORDS:
            return param["levels"] == 0 or param.get("reference", False)
        return bare(param["type"]) in self.handles

    def is_data_pointer(self, param):
        if bare(param["type"]) in DEVICE_ADDRESSES:
            return True
        return (param["levels"] > 0 and param["base"] in DATA_BASES and
                stripped_pointee(param["type"]) not in self.handles and
                stripped_pointee(param["canonical"]) not in STREAM_RECORDS)

    def rules_of(self, fn):
        """The rules (a, b, c) the function meets."""
        params = fn["params"]
        met = set()
        name = unqualified(strip_name(fn["name"]))
        stream = any(self.is_stream(p) for p in params)
        if stream and any(self.is_data_pointer(p) for p in params):
            met.add("a")
        waitable = stream or any(
            bare(p["canonical"]) in EVENT_TYPES | CONTEXT_TYPES
            for p in params)
        if WAIT_WORDS.search(name) and (waitable or (
                not params and not fn.get("class"))):
            met.add("b")
        if HOST_MEMORY_WORDS.search(name):
            met.add("c")
        return met


def signature(fn):
    params = ", ".join(("%s %s" % (p["type"], p["name"])).strip()
                       for p in fn["params"])
    return "%s %s(%s)" % (fn["return"]["type"], fn["name"], params)


# The scan.

def scan(args):
    if args.scan:
        with open(args.scan) as f:
            lines = f.read().splitlines()
    else:
        if not args.scanner:
            fail("give --scanner or --scan")
        command = [args.scanner, "--cuda-path=" + args.cuda_path]
        command += args.scanner_args
        result = subprocess.run(command, stdout=subprocess.PIPE, text=True)
        if result.returncode != 0:
            fail("%s failed (exit status %d)"
                 % (" ".join(command), result.returncode))
        lines = result.stdout.splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return ([r for r in records if r["kind"] == "function"],
            [r for r in records if r["kind"] == "header"])


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scanner", help="tools/api-scan's binary")
    parser.add_argument("--scan", help="read the scanner's output from FILE")
    parser.add_argument("--cuda-path", default="/usr/local/cuda")
    parser.add_argument("--catalog",
                        default=os.path.join(ROOT, "checks", "api"))
    parser.add_argument("--exclusions", default=os.path.join(
        ROOT, "docs", "api-catalog", "exclusions.tsv"))
    parser.add_argument("--pending", default=os.path.join(
        ROOT, "docs", "api-catalog", "pending.tsv"))
    parser.add_argument("--verbose", action="store_true",
                        help="list the catalogued, excluded and pending too")
    parser.add_argument("scanner_args", nargs="*",
                        help="after --: more arguments for the scanner")
    args = parser.parse_args()

    functions, headers = scan(args)
    names, handles, prefixes, roles = read_catalog(args.catalog)
    exclusions = read_decisions(args.exclusions)
    pending = read_decisions(args.pending)
    rules = Rules(handles)
    rules.learn_setters(functions)

    # One candidate per stripped name: the rules its overloads meet.
    scanned = collections.Counter()
    candidates = collections.OrderedDict()
    for fn in functions:
        scanned[library_of(fn["header"])] += 1
        if not is_public(fn):
            continue
        met = rules.rules_of(fn)
        if not met:
            continue
        name = strip_name(fn["name"])
        entry = candidates.setdefault(name, {"fn": fn, "rules": set(),
                                             "covered": {}})
        entry["rules"] |= met

    # What covers each candidate's rules.
    for name, entry in candidates.items():
        fn = entry["fn"]
        if name in names:
            for rule in entry["rules"]:
                entry["covered"][rule] = ("catalogued", names[name])
            continue
        if "a" in entry["rules"]:
            # As checks/api/GpuLibrary.cpp reads a handle row: a function of
            # the library (its name has the prefix) given the handle.
            handle = next((bare(p["type"]) for p in fn["params"]
                           if name.startswith(handles.get(bare(p["type"]),
                                                          "\0"))), None)
            prefix = next((p for p in prefixes if name.startswith(p)), None)
            if handle:
                entry["covered"]["a"] = ("catalogued",
                                         "GPU_LIBRARY_HANDLE " + handle)
            elif prefix:
                entry["covered"]["a"] = ("catalogued",
                                         "GPU_LIBRARY_STREAM_CALL " + prefix)

    used = set()
    for kind, rows in (("excluded", exclusions), ("pending", pending)):
        for name, entry in candidates.items():
            for rule in entry["rules"] - set(entry["covered"]):
                row = next((r for r in rows if rule in r.rules and
                            fnmatch.fnmatchcase(name, r.pattern)), None)
                if row:
                    entry["covered"][rule] = (kind, row)
                    used.add((row.file, row.line))

    # The report.
    present = [h["header"] for h in headers if h["found"]]
    absent = [h["header"] for h in headers if not h["found"]]
    print("scanned %d functions: %s" % (sum(scanned.values()), ", ".join(
        "%s %d" % (lib, n) for lib, n in sorted(scanned.items()))))
    print("headers found: %s" % (", ".join(present) or "none"))
    print("headers absent: %s" % (", ".join(absent) or "none"))
    for handle, setter in sorted(rules.derived.items()):
        print("stream-bound handle not in GpuLibraryApis.def: %s (%s)"
              % (handle, setter))
    by_rule = collections.Counter(r for e in candidates.values()
                                  for r in e["rules"])
    print("candidates: %d (a: %d, b: %d, c: %d)" % (
        len(candidates), by_rule["a"], by_rule["b"], by_rule["c"]))

    groups = collections.OrderedDict(
        (k, []) for k in ("catalogued", "excluded", "pending", "neither"))
    for name, entry in candidates.items():
        kinds = {entry["covered"].get(r, ("neither",))[0]
                 for r in entry["rules"]}
        # A candidate is listed where its least settled rule is.
        for kind in ("neither", "pending", "excluded", "catalogued"):
            if kind in kinds:
                groups[kind].append((name, entry))
                break

    def how(entry, rule):
        kind, what = entry["covered"].get(rule, ("neither", None))
        if isinstance(what, Decision):
            return "%s: %s:%d %s" % (rule, os.path.basename(what.file),
                                     what.line, what.pattern)
        return "%s: %s" % (rule, what or "not covered")

    # Per library: what was scanned, and where its candidates stand.
    table = collections.OrderedDict(
        (lib, collections.Counter()) for lib in sorted(scanned))
    for kind, members in groups.items():
        for name, entry in members:
            counts = table[library_of(entry["fn"]["header"])]
            counts["candidates"] += 1
            counts[kind] += 1
    columns = ("candidates",) + tuple(groups)
    print("%-20s %8s" % ("library", "scanned") +
          "".join(" %10s" % c for c in columns))
    for lib, counts in table.items():
        print("%-20s %8d" % (lib, scanned[lib]) +
              "".join(" %10d" % counts[c] for c in columns))
    ways = collections.Counter(
        what.split()[0] if what.startswith("GPU_LIBRARY") else "named rows"
        for _, entry in candidates.items()
        for kind, what in entry["covered"].values() if kind == "catalogued")
    print("catalogued rules, by the rows that cover them: %s" % ", ".join(
        "%s %d" % item for item in sorted(ways.items())))

    for kind, members in groups.items():
        print("%s: %d" % (kind, len(members)))
        if kind == "neither" or args.verbose:
            for name, entry in members:
                fn = entry["fn"]
                print("  %s [%s] %s" % (name, "".join(sorted(entry["rules"])),
                                        "; ".join(how(entry, r) for r in
                                                  sorted(entry["rules"]))))
                if kind == "neither":
                    print("    %s:%d: %s" % (fn["header"], fn["line"],
                                             signature(fn)))

    # A row's role string names the parameters of the declarations of the
    # name with as many parameters (the catalog picks the row by the count);
    # an overload of a length no row has (cuda_runtime.h's C++ spellings)
    # puts its arguments where the first row looks. Reported, not failed.
    for fn in functions:
        name = strip_name(fn["name"])
        if (is_public(fn) and name in roles and
                len(fn["params"]) not in roles[name]):
            print("note: %s has rows of %s roles, %s:%d declares %d "
                  "parameters: %s"
                  % (name, "/".join(map(str, roles[name])), fn["header"],
                     fn["line"], len(fn["params"]), signature(fn)))

    stale = [r for r in exclusions + pending if (r.file, r.line) not in used]
    print("stale decisions: %d" % len(stale))
    for row in stale:
        print("  %s:%d: %s [%s] matches no uncatalogued candidate" % (
            os.path.basename(row.file), row.line, row.pattern,
            "".join(sorted(row.rules))))
    return 1 if groups["neither"] or stale else 0


if __name__ == "__main__":
    sys.exit(main())
