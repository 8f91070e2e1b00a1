"""Makes a build directory whose cuda-async-lint runs the given Python code
(for testing scripts/fuzz.py): fake-build.py DIR CODE."""
import os
import stat
import sys

root, code = sys.argv[1], sys.argv[2]
for sub in ("bin", "lib", "share/cuda-async-lint/include"):
    os.makedirs(os.path.join(root, sub), exist_ok=True)
lint = os.path.join(root, "bin", "cuda-async-lint")
with open(lint, "w") as f:
    f.write("#!%s\n%s\n" % (sys.executable, code))
os.chmod(lint, os.stat(lint).st_mode | stat.S_IXUSR | stat.S_IXGRP |
         stat.S_IXOTH)
open(os.path.join(root, "lib", "CudaAsyncLintTidyModule.so"), "w").close()
