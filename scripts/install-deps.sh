#!/usr/bin/env bash
# Installs everything cuda-async-lint's build and tests need on Debian 12,
# idempotently: Debian packages through apt-get (one 'apt-get update', only
# when something is missing), then the reference SARIF validator from npm
# into tools/sarif. The CUDA toolkit is optional and not installed here: the
# tool falls back to its bundled CUDA declarations, and the tests that need a
# toolkit or nvcc are skipped without one.
#
#   scripts/install-deps.sh          the build and every test
#   scripts/install-deps.sh --gate   only what building and running the
#                                    linter needs (the CI gate, action.yml):
#                                    no test tools, browser, editors, HIP or npm
#
# Where the distribution has no clang-22 (Ubuntu 24.04, GitHub's runner
# image), --gate adds LLVM's own apt repository (apt.llvm.org) for it first.
set -euo pipefail
cd "$(dirname "$0")/.."

GATE=0
case "${1:-}" in
--gate) GATE=1 ;;
"") ;;
*)
  echo "install-deps: unknown option '$1' (usage: install-deps.sh [--gate])" >&2
  exit 2
  ;;
esac

# What building cuda-async-lint and running it need (libclang-22-dev holds
# clang-tidy's library and headers, which the driver links).
GATE_PACKAGES=(
  clang-22 libclang-22-dev llvm-22-dev
  # LLVM's CMake package links LLVMSupport against zlib and zstd: without
  # their -dev packages its configuration fails (shown in a Debian 12 chroot)
  zlib1g-dev libzstd-dev
  cmake ninja-build
  nlohmann-json3-dev
  python3
  # renders the check pages as HTML at build time (scripts/check-pages.py)
  cmark-gfm
)

PACKAGES=(
  "${GATE_PACKAGES[@]}"
  clang-tidy-22 clang-format-22 libomp-22-dev llvm-22-tools
  libgtest-dev libgmock-dev
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

if [ "$GATE" = 1 ]; then
  PACKAGES=("${GATE_PACKAGES[@]}")
fi

# LLVM's apt repository for this distribution's codename, where its own
# archive has no clang-22 (apt.llvm.org, as LLVM's llvm.sh sets it up).
add_llvm_repository() {
  local codename
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  if [ -z "$codename" ]; then
    echo "install-deps: no clang-22 here and no distribution codename in /etc/os-release for apt.llvm.org" >&2
    exit 1
  fi
  echo "install-deps: clang-22 is not in this distribution's archive; adding apt.llvm.org's llvm-toolchain-$codename-22"
  "${SUDO[@]}" apt-get install -y --no-install-recommends ca-certificates curl
  "${SUDO[@]}" install -d -m 0755 /etc/apt/keyrings
  local key
  key=$(mktemp)
  if ! curl -fsSL https://apt.llvm.org/llvm-snapshot.gpg.key -o "$key"; then
    echo "install-deps: cannot download apt.llvm.org's signing key; install clang-22, libclang-22-dev and llvm-22-dev another way, or run in a Debian 12 container" >&2
    exit 1
  fi
  "${SUDO[@]}" install -m 0644 "$key" /etc/apt/keyrings/apt.llvm.org.asc
  rm -f "$key"
  printf 'Types: deb\nURIs: https://apt.llvm.org/%s/\nSuites: llvm-toolchain-%s-22\nComponents: main\nSigned-By: /etc/apt/keyrings/apt.llvm.org.asc\n' \
    "$codename" "$codename" |
    "${SUDO[@]}" tee /etc/apt/sources.list.d/apt.llvm.org.sources >/dev/null
  "${SUDO[@]}" apt-get update
}

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# npm runs the SARIF validator; Debian's nodejs/npm if none is installed.
if [ "$GATE" = 0 ] && ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  "${SUDO[@]}" apt-get update
  # (Read whole: 'apt-cache ... | grep -q' under pipefail fails when grep
  # stops reading first.)
  policy=$(apt-cache policy clang-22 2>/dev/null || true)
  if [ "$GATE" = 1 ] && ! grep -q 'Candidate: [0-9]' <<<"$policy"; then
    add_llvm_repository
  fi
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "install-deps: Debian packages already installed"
fi

if [ "$GATE" = 1 ]; then
  exit 0
fi

if [ ! -x tools/sarif/node_modules/.bin/sarif-multitool ]; then
  echo "install-deps: installing the SARIF validator (tools/sarif)"
  (cd tools/sarif && npm ci --no-audit --no-fund)
fi
