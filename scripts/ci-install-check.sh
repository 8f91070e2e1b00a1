#!/usr/bin/env bash
# Shows the GitHub Action's install on a fresh system: bootstraps a minimal
# chroot of Debian 12 or Ubuntu 24.04 (GitHub's runner image) with the apt
# sources their official images carry, clones this repository's HEAD into
# it, and runs what action.yml runs: scripts/install-deps.sh --gate,
# scripts/build.sh --gate, then scripts/ci-gate.sh on a compilation
# database of examples/. Prints each step's time; exit status 0 when the
# gate ran (it reports the examples' findings: exit 1 from the gate is
# expected), 1 when a step before it failed.
#
#   sudo scripts/ci-install-check.sh debian12|ubuntu2404 [WORKDIR]
#
# Needs root, debootstrap and network access to the distribution's mirror
# (and, for Ubuntu 24.04, to apt.llvm.org). WORKDIR (default: a new
# temporary directory) keeps the chroot for inspection; it is not removed.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

dist=${1:-}
work=${2:-$(mktemp -d /tmp/ci-install-check.XXXXXX)}
case $dist in
debian12)
  suite=bookworm mirror=http://deb.debian.org/debian script=bookworm
  sources="Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
  list=debian.sources
  ;;
ubuntu2404)
  # Debian 12's debootstrap knows Ubuntu up to 22.04; 24.04 bootstraps as
  # every Ubuntu release does (its 'gutsy' script). Its keyring is not
  # Debian's: the packages are fetched without checking it, and apt inside
  # checks against the Ubuntu keyring the bootstrap installs.
  suite=noble mirror=http://archive.ubuntu.com/ubuntu script=gutsy
  sources="Types: deb
URIs: http://archive.ubuntu.com/ubuntu/
Suites: noble noble-updates noble-backports noble-security
Components: main restricted universe multiverse
Signed-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg"
  list=ubuntu.sources
  ;;
*)
  echo "usage: ci-install-check.sh debian12|ubuntu2404 [WORKDIR]" >&2
  exit 2
  ;;
esac
if [ "$(id -u)" -ne 0 ] || ! command -v debootstrap >/dev/null; then
  echo "ci-install-check: needs root and debootstrap (apt-get install debootstrap)" >&2
  exit 2
fi

root=$work/$dist
step() {
  local name=$1
  shift
  local start=$SECONDS
  echo "== $name"
  if "$@"; then
    echo "== $name: done in $((SECONDS - start)) s"
  else
    local rc=$?
    echo "== $name: failed (exit $rc) after $((SECONDS - start)) s"
    return $rc
  fi
}
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
  HOME=/root LANG=C.UTF-8 /bin/bash -c "$1"; }
cleanup() {
  umount "$root/proc" "$root/dev" 2>/dev/null || true
}
trap cleanup EXIT

bootstrap() {
  debootstrap --variant=minbase --no-check-gpg "$suite" "$root" "$mirror" \
    "/usr/share/debootstrap/scripts/$script" >"$work/$dist-bootstrap.log" 2>&1
}
step "bootstrap $dist" bootstrap
rm -f "$root/etc/apt/sources.list"
printf '%s\n' "$sources" >"$root/etc/apt/sources.list.d/$list"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
git clone -q "$repo" "$root/src"

status=0
step "scripts/install-deps.sh --gate" in_root \
  "cd /src && scripts/install-deps.sh --gate" || status=1
[ $status = 0 ] && { step "scripts/build.sh --gate" in_root \
  "cd /src && scripts/build.sh --gate >/tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }" || status=1; }
if [ $status = 0 ]; then
  # The gate on a database of the examples, as action.yml runs it.
  in_root "cd /src/examples && python3 -c \"import json, os; json.dump([{'directory': os.getcwd(), 'file': f, 'arguments': ['clang++', '-x', 'cuda', '-c', f]} for f in sorted(os.listdir('.')) if f.endswith('.cu')], open('compile_commands.json', 'w'))\""
  step "scripts/ci-gate.sh" in_root \
    "cd /src/examples && PATH=/src/build/bin:\$PATH CAL_BUILD_DIR=. CAL_ARGS=--use-bundled-cuda CAL_HTML=report.html GITHUB_STEP_SUMMARY=summary.md /src/scripts/ci-gate.sh; rc=\$?; echo \"gate exit \$rc\"; head -3 summary.md; [ \$rc -le 1 ]" ||
    status=1
fi
echo "== installed size: $(du -sh "$root" | cut -f1) (the chroot at $root)"
exit $status
