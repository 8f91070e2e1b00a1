#!/usr/bin/env bash
# Configures and builds cuda-async-lint into build/ with clang 22.
#
#   scripts/build.sh          everything: the driver, the clang-tidy plugin,
#                             the tracer, the tests
#   scripts/build.sh --gate   the driver and its documentation only, what the
#                             CI gate runs (action.yml); no tests
set -euo pipefail
cd "$(dirname "$0")/.."
testing=ON
targets=()
case "${1:-}" in
--gate)
  testing=OFF
  targets=(--target cuda-async-lint cuda-async-lint-docs)
  ;;
"") ;;
*)
  echo "build: unknown option '$1' (usage: build.sh [--gate])" >&2
  exit 2
  ;;
esac
cmake -S . -B build -G Ninja \
  -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" \
  -DBUILD_TESTING=$testing
cmake --build build "${targets[@]}"
