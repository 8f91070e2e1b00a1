#!/usr/bin/env bash
# Configures and builds cuda-async-lint into build/ with clang 22.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja \
  -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" \
  -DBUILD_TESTING=ON
cmake --build build
