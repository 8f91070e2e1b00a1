#!/usr/bin/env bash
# The main job: install, build, and run cuda-async-lint on examples/.
# Exit status is the linter's: 1 means it found something (the examples
# include buggy programs on purpose), 0 nothing, 2 or 3 an error.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
echo "cuda-async-lint examples/*:"
exec ./build/bin/cuda-async-lint examples/*.cu examples/*.cpp examples/*.hip
