"""What a corpus manifest (docs/real-code/corpus.json) says about the files
of one repository, read alike by scripts/real-code.py and
scripts/injected-bugs.py."""
import re


def compiled_as_cuda(pattern, path):
    """Whether the build compiles `path` as CUDA though its extension is not
    .cu (CMake's LANGUAGE CUDA, nvcc -x cu): the manifest's "cuda" pattern
    matches it."""
    return bool(pattern) and not path.endswith(".cu") and \
        re.search(pattern, path) is not None
