"""Edits test/Inputs/baseline-edits.cu around its findings, one way per
name: python edit-source.py FILE EDIT..."""
import sys

RELIES_COPY = "  cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);\n  // EDIT-BETWEEN"
RACE_READ = "  consume(h[0]);\n  cudaFreeHost"

EDITS = {
    # Lines added at the top of the file.
    "above": lambda s: "// Licensed under ...\n// (c) someone\n\n#define UNUSED 1\n" + s,
    # Lines added between a finding and the line its message names.
    "between": lambda s: s.replace("  // EDIT-BETWEEN\n", "  int pad = 0;\n  (void)pad;\n  pad += 1;\n"),
    # Another function changed.
    "other": lambda s: s.replace("  cudaMemsetAsync(d, 0, 64, s);\n", "  cudaMemsetAsync(d, 0, 128, s);\n  cudaMemsetAsync(d + 32, 0, 64, s);\n"),
    # Other text on the findings' lines: a comment after one, a cast before
    # the other.
    "same-line": lambda s: s.replace(RELIES_COPY, RELIES_COPY.replace("s);\n", "s); // staged\n", 1)).replace(RACE_READ, RACE_READ.replace("  consume(h[0]);", "  (void)consume(h[0]); // checked", 1)),
    # The code a finding points at changed: a new finding.
    "finding": lambda s: s.replace(RACE_READ, RACE_READ.replace("h[0]", "h[1]", 1)),
}

path = sys.argv[1]
text = open(path).read()
for name in sys.argv[2:]:
    edited = EDITS[name](text)
    if edited == text:
        sys.exit("edit-source.py: edit '%s' changed nothing" % name)
    text = edited
open(path, "w").write(text)
