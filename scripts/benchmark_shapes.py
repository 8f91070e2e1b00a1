"""Control-flow shapes that are not loops, for scripts/benchmark.py
--shapes: generated code of N branches, cases, labels or calls, each with
one cudaMemcpyAsync from pinned memory (generated dispatch tables, unrolled
code and big switches have these shapes). Each generator returns the body
of a translation unit that includes <cuda_runtime.h>.

With pageable memory (--shapes --findings) each copy is a finding of
cuda-async-pageable-copy; written on one line (generated and minified code,
macros that expand a list), every finding is on that line."""
import os

PRELUDE = """#include <cuda_runtime.h>
int g(cudaError_t);
void f(float *d, cudaStream_t s, int m) {
  float *h;
  cudaMallocHost(&h, 64 * sizeof(float));
"""
EPILOGUE = """  cudaStreamSynchronize(s);
  cudaFreeHost(h);
}
"""
PAGEABLE_PRELUDE = """#include <cuda_runtime.h>
#include <stdlib.h>
int g(cudaError_t);
void f(float *d, cudaStream_t s, int m) {
  float *h = (float *)malloc(64 * sizeof(float));
"""
PAGEABLE_EPILOGUE = """  cudaStreamSynchronize(s);
  free(h);
}
"""
COPY = "cudaMemcpyAsync(d, h, 64 * sizeof(float), cudaMemcpyHostToDevice, s)"


def else_if_chain(n):
    return "".join("  %sif (m == %d) { %s; }\n" % ("" if i == 0 else "else ",
                                                    i, COPY)
                   for i in range(n))


def switch_cases(n):
    return ("  switch (m) {\n" +
            "".join("  case %d: %s; break;\n" % (i, COPY) for i in range(n)) +
            "  }\n")


def sequential_ifs(n):
    return "".join("  if (m == %d) { %s; }\n" % (i, COPY) for i in range(n))


def nesting(n):
    # Without braces: clang's bracket depth stops at 2048. Each level's copy
    # is in its condition.
    return ("".join("  if (m > %d && g(%s))\n" % (i, COPY) for i in range(n)) +
            "    m = 0;\n")


def labels_and_gotos(n):
    # Each label is jumped to from a label further on (a goto every 7919th
    # label away, modulo n): one large knot of edges, as generated state
    # machines have.
    return "".join("l%d: %s; if (m == %d) goto l%d;\n" % (
        i, COPY, i, (i * 7919) % n) for i in range(n))


def one_statement(n):
    return "  int x = " + " + ".join("g(%s)" % COPY for _ in range(n)) + \
        ";\n  (void)x;\n"


def one_block(n):
    return "".join("  %s;\n" % COPY for _ in range(n))


SHAPES = [("else-if chain", else_if_chain), ("switch of N cases", switch_cases),
          ("N sequential ifs", sequential_ifs), ("nesting N deep", nesting),
          ("N labels and gotos", labels_and_gotos),
          ("one statement of N calls", one_statement),
          ("N copies in one block", one_block)]


def source(shape, n, pageable=False, one_line=False):
    """The unit of `shape` at size n: copies from pinned memory, or from
    pageable memory (a finding each); the body a statement a line, or all
    on one line (every shape's statements are free of the preprocessor, so
    joining the lines changes nothing else)."""
    body = shape(n)
    if one_line:
        body = "  " + " ".join(line.strip() for line in body.splitlines()) + "\n"
    if pageable:
        return PAGEABLE_PRELUDE + body + PAGEABLE_EPILOGUE
    return PRELUDE + body + EPILOGUE


# A statement a line, or every statement on one line.
LAYOUTS = (("a line each", False), ("one line", True))


def write(directory, shape, n, pageable=False, one_line=False):
    """Writes source(shape, n, ...) into a file of its own under directory
    and returns the file's path."""
    path = os.path.join(directory, "%s-%d-%d-%d.cu" % (
        shape.__name__, n, pageable, one_line))
    with open(path, "w") as f:
        f.write(source(shape, n, pageable=pageable, one_line=one_line))
    return path
