"""Call structures across units, for scripts/benchmark.py --calls: N host
units, each allocating pageable memory and handing it to a function of
another unit that copies it asynchronously, so that every unit's findings
rest on another unit's answers. Each generator writes the units and their
compile_commands.json."""
import json
import os

UNIT = """// Unit {i}: copies what its callers allocate; hands its own pageable
// memory to {callees}.
#include <cuda_runtime.h>
#include <cstdlib>
{declarations}
void send{i}(float *h, size_t n, cudaStream_t s) {{
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaFree(d);
}}
void start{i}(cudaStream_t s) {{
  float *h = static_cast<float *>(std::malloc(64 * sizeof(float)));
{calls}  std::free(h);
}}
"""


def callees(structure, i, n):
    """The units unit i calls."""
    if structure == "ring":
        return [(i + 1) % n]
    if structure == "chain":
        return [i + 1] if i + 1 < n else []
    if structure == "star":
        # Every unit calls the hub, the hub calls every unit.
        return [0] if i else list(range(1, n))
    raise ValueError(structure)


STRUCTURES = ["ring", "chain", "star"]


def generate(root, structure, n):
    os.makedirs(root, exist_ok=True)
    entries = []
    for i in range(n):
        called = callees(structure, i, n)
        name = "u%03d.cu" % i
        with open(os.path.join(root, name), "w") as f:
            f.write(UNIT.format(
                i=i,
                callees=", ".join("send%d" % c for c in called) or "no unit",
                declarations="".join(
                    "void send%d(float *h, size_t n, cudaStream_t s);\n" % c
                    for c in called),
                calls="".join("  send%d(h, 64, s);\n" % c for c in called)))
        entries.append({"directory": root, "file": name,
                        "arguments": ["nvcc", "-c", name]})
    with open(os.path.join(root, "compile_commands.json"), "w") as f:
        json.dump(entries, f)
