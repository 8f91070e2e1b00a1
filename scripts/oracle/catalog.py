"""The CUDA API catalog (checks/api/*.def) as the mutant generator reads it.

The checks and the mutants know the API from the same tables: a wait is a
CUDA_CALL of kind StreamSync, DeviceSync, EventSync or StreamWaitEvent; a
pinned allocation a CUDA_ALLOC of Pinned memory, released by the call that
row names; work on a stream any copy, memset, launch or host function whose
roles name a 'stream'; and a library handle is bound to a stream by the
setter of a GPU_LIBRARY_HANDLE row.
"""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
API_DIR = os.path.join(ROOT, "checks", "api")

ROW = re.compile(r"^(CUDA_[A-Z_]+|GPU_LIBRARY_[A-Z_]+)\((.*)\)\s*$")

WAIT_KINDS = {"StreamSync", "DeviceSync", "EventSync", "StreamWaitEvent"}
WORK_KINDS = {"KernelLaunch", "HostFunc", "GraphLaunch"}


class Api:
    def __init__(self, macro, name, family, fields, roles):
        self.macro, self.name, self.family = macro, name, family
        self.fields = fields
        self.roles = roles.split() if roles else []

    def role(self, role):
        """The index of the parameter with `role`, or None."""
        return self.roles.index(role) if role in self.roles else None

    @property
    def success(self):
        """The call's success value, of its return type."""
        return "CUDA_SUCCESS" if self.family == "Driver" else "cudaSuccess"


def rows(path):
    with open(path) as f:
        for line in f:
            m = ROW.match(line.strip())
            if not m:
                continue
            args = [a.strip() for a in re.findall(r'"[^"]*"|[^,]+',
                                                   m.group(2))]
            yield m.group(1), [a.strip('"') if a.startswith('"') else a
                               for a in args]


class Catalog:
    """What the mutation rules need, read from the .def files."""

    def __init__(self, api_dir=API_DIR):
        self.apis = {}
        self.library_setters = {}
        for name in ("CudaApis.def", "GpuLibraryCopies.def"):
            for macro, args in rows(os.path.join(api_dir, name)):
                api = Api(macro, args[0], args[1], args[2:-1],
                          args[-1] if macro != "CUDA_LAUNCH_CONFIGURATION"
                          or len(args) > 2 else "")
                self.apis.setdefault(api.name, api)
        for macro, args in rows(os.path.join(api_dir, "GpuLibraryApis.def")):
            if macro == "GPU_LIBRARY_HANDLE" and not args[0].startswith(
                    ("hip", "roc")):
                self.library_setters[args[2]] = args[0]

    def of(self, macro, pred=lambda a: True):
        return {n: a for n, a in self.apis.items()
                if a.macro == macro and pred(a)}

    @property
    def waits(self):
        return self.of("CUDA_CALL", lambda a: a.fields[0] in WAIT_KINDS)

    @property
    def pinned_allocations(self):
        return self.of("CUDA_ALLOC", lambda a: a.fields[0] == "Pinned")

    @property
    def pinned_releases(self):
        return self.of("CUDA_RELEASE", lambda a: a.fields[0] == "Pinned")

    @property
    def registrations(self):
        return self.of("CUDA_REGISTER")

    @property
    def unregistrations(self):
        return self.of("CUDA_UNREGISTER")

    @property
    def stream_work(self):
        """Calls that put work on the stream they are given."""
        work = {}
        for n, a in self.apis.items():
            if a.role("stream") is None:
                continue
            if a.macro in ("CUDA_COPY", "CUDA_MEMSET") or (
                    a.macro == "CUDA_CALL" and a.fields[0] in WORK_KINDS):
                work[n] = a
        return work
