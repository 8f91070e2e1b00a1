#!/usr/bin/env bash
# Installs the .deb that 'cpack -G DEB' wrote into a fresh Debian 12 system
# (debootstrap, minbase: nothing but the package's declared dependencies and
# what apt installs for them) and runs the installed tools there: the
# driver on the bundled examples (text and HTML), and clang-tidy-22 (the
# package's recommendation) with the installed plugin.
#
#   sudo scripts/test-deb-in-chroot.sh build/cuda-async-lint_*.deb [DIR]
#
# Needs root, debootstrap and the network (a Debian mirror). Not part of CI:
# docs/install.md records its last run.
set -euo pipefail
deb=$(realpath "$1")
root=${2:-$(mktemp -d /tmp/cuda-async-lint-chroot.XXXXXX)}
cd "$(dirname "$0")/.."

if [ ! -x "$root/usr/bin/apt-get" ]; then
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
fi
# The host's sources (bookworm, -updates, -security), where LLVM 22 is.
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/"
  rm -f "$root/etc/apt/sources.list"
fi
cp "$deb" "$root/tmp/package.deb"
rm -rf "$root/tmp/examples" && cp -r examples "$root/tmp/examples"
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"' EXIT

chroot "$root" bash -euc '
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/package.deb >/dev/null
  cd /tmp/examples
  cuda-async-lint --version
  status=0; cuda-async-lint *.cu *.cpp *.hip > /tmp/report.txt || status=$?
  echo "driver: exit $status, $(grep -c "warning:" /tmp/report.txt) warnings"
  status=0; cuda-async-lint --format=html -o /tmp/report.html *.cu *.cpp *.hip || status=$?
  echo "html: exit $status, $(wc -c < /tmp/report.html) bytes"
  test -f /usr/share/man/man1/cuda-async-lint.1* && echo "man page: installed"
  clang-tidy-22 --load=/usr/lib/cuda-async-lint/CudaAsyncLintTidyModule.so \
    --checks="-*,cuda-async-*" --quiet pipeline_malloc.cu -- -x cuda \
    --cuda-host-only -nocudainc -nocudalib \
    -isystem /usr/share/cuda-async-lint/include -include cuda_runtime.h \
    2>/dev/null | grep -c "warning:" | sed "s/^/plugin: /; s/$/ warnings/"
'
