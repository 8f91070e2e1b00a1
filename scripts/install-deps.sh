#!/usr/bin/env bash
# Installs everything cuda-async-lint's build and tests need on Debian 12,
# idempotently: Debian packages through apt-get (one 'apt-get update', only
# when something is missing), then the reference SARIF validator from npm
# into tools/sarif. The CUDA toolkit is optional and not installed here: the
# tool falls back to its bundled CUDA declarations, and the tests that need a
# toolkit or nvcc are skipped without one.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  clang-22 libclang-22-dev clang-tidy-22 clang-format-22 libomp-22-dev
  llvm-22-dev llvm-22-tools
  cmake ninja-build
  nlohmann-json3-dev libgtest-dev libgmock-dev
  python3
  # renders the check pages as HTML at build time (scripts/check-pages.py)
  cmark-gfm
  # ROCm's HIP headers and hipcc: the HIP tests parse against the real
  # headers too, and test/driver/hipcc-cmake-project.test builds with hipcc
  libamdhip64-dev hipcc
  # headless, renders the HTML report in test/driver/html-browser.test
  chromium
  # run the editor setups of docs/editors.md in test/driver/editors.test
  neovim emacs-nox
  # eglot: Emacs's LSP client, for the language server's setup there
  elpa-eglot
  # the clangd docs/editors.md recommends beside the language server: it
  # reads CUDA 13's headers (clangd 14 does not), test/driver/clangd.test
  clangd-22
)

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  SUDO=(sudo)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# npm runs the SARIF validator; Debian's nodejs/npm if none is installed.
if ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  "${SUDO[@]}" apt-get update
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "install-deps: Debian packages already installed"
fi

if [ ! -x tools/sarif/node_modules/.bin/sarif-multitool ]; then
  echo "install-deps: installing the SARIF validator (tools/sarif)"
  (cd tools/sarif && npm ci --no-audit --no-fund)
fi
