#!/usr/bin/env bash
# Installs, builds, and runs every test: lit (both front-ends against the
# same expectations, driver behaviour) and the GoogleTest unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
# Unoptimized, to build in half the time (CMakeLists.txt's Test build type).
CMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE:-Test} ./scripts/build.sh
ctest --test-dir build --output-on-failure
