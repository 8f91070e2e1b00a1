#!/usr/bin/env bash
# Runs the runtime verifier on this machine's GPU and records what it found:
#   OUTDIR/report.txt     the table printed on stdout
#   OUTDIR/results.json   the full report (--json)
#   OUTDIR/timeline.svg   buggy vs fixed engine timelines (--timeline)
#   OUTDIR/nvidia-smi.csv the GPU, driver and PCIe link as nvidia-smi sees them
# docs/runtime-verifier/ holds the recorded runs; docs/runtime-verifier.md
# says how to read them.
#
# Usage: scripts/verify-on-gpu.sh OUTDIR [cuda-async-verify options...]
# Builds runtime_verifier/ on its own (CMake, nvcc, nlohmann-json; no LLVM)
# into build-verify/, unless $CUDA_ASYNC_VERIFY names a built binary.
# Exits with cuda-async-verify's exit code.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 1 ]]; then
  echo "usage: $0 OUTDIR [cuda-async-verify options...]" >&2
  exit 2
fi
out=$1
shift
mkdir -p "$out"
if [[ -z "${CUDA_ASYNC_VERIFY:-}" ]]; then
  cmake -S runtime_verifier -B build-verify -G Ninja -DCMAKE_BUILD_TYPE=Release
  cmake --build build-verify
  CUDA_ASYNC_VERIFY=build-verify/cuda-async-verify
fi
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current,clocks.max.sm,memory.total \
  --format=csv >"$out/nvidia-smi.csv" || echo "nvidia-smi failed" >"$out/nvidia-smi.csv"
set +e
"$CUDA_ASYNC_VERIFY" --json "$out/results.json" --timeline "$out/timeline.svg" "$@" \
  | tee "$out/report.txt"
status=${PIPESTATUS[0]}
echo "cuda-async-verify exit code: $status" >&2
exit "$status"
