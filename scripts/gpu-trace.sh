#!/bin/bash
# Runs on a machine with an NVIDIA GPU (the device tool's, or yours), with
# CUDA and CMake but no LLVM: builds the tracer's injection library, the
# examples, test/tracer/Inputs/gpu's program and the runtime verifier with line
# tables; runs each under the tracer (the verifier once with its buggy
# variants, once with its fixed ones, per check); times the verifier's
# reference pipeline with and without the tracer (its overhead); and packs
# the raw traces, the logs and the programs (their DWARF symbolizes the
# traces) into one archive:
#
#   scripts/gpu-trace.sh OUTDIR        ->  OUTDIR/gpu-trace.tar.gz
#
# Then, where LLVM is, scripts/runtime-trace.py finishes the traces and
# joins them with the linter's findings into docs/runtime-trace/.
set -u -o pipefail
OUT=${1:?usage: gpu-trace.sh OUTDIR}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${WORK:-/tmp/cuda-async-trace-gpu}
mkdir -p "$OUT" "$WORK/bin" "$WORK/raw"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader \
  > "$WORK/raw/device.txt" 2>&1

cmake -S "$ROOT/tracer/injection" -B "$WORK/build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$WORK/cmake.log" 2>&1 ||
  { cat "$WORK/cmake.log"; exit 1; }
ninja -C "$WORK/build" > "$WORK/ninja.log" 2>&1 ||
  { cat "$WORK/ninja.log"; exit 1; }
INJECTION=$WORK/build/libcuda-async-trace-injection.so

# Each program: name, then its sources (relative to the repository).
build() {
  local name=$1; shift
  local srcs=()
  for s in "$@"; do srcs+=("$ROOT/$s"); done
  case "$1" in
  *.cpp) g++ -g -O2 -I/usr/local/cuda/include -o "$WORK/bin/$name" \
           "${srcs[@]}" -L/usr/local/cuda/lib64 -lcudart -lcuda ;;
  *) nvcc -g -lineinfo -O2 -arch=sm_90 -o "$WORK/bin/$name" "${srcs[@]}" \
       -lcuda ;;
  esac
}

# trace NAME PROGRAM [ARGS...]: raw traces raw/NAME.<pid>.raw.json.
trace() {
  local name=$1 program=$2; shift 2
  echo "== $name"
  ( cd "$WORK/bin" &&
    CUDA_INJECTION64_PATH=$INJECTION \
    CUDA_ASYNC_TRACE_OUTPUT=$WORK/raw/$name.%p.raw.json \
    ./"$program" "$@" ) > "$WORK/raw/$name.log" 2>&1
  echo "exit $?" >> "$WORK/raw/$name.log"
  tail -3 "$WORK/raw/$name.log"
}

for f in "$ROOT"/examples/*.cu "$ROOT"/examples/*.cpp; do
  rel=${f#"$ROOT"/}
  name=$(basename "${f%.*}")
  build "$name" "$rel" && trace "$name" "$name"
done
build opaque_staging test/tracer/Inputs/gpu/opaque_staging.cu \
  test/tracer/Inputs/gpu/staging_buffer.cpp && trace opaque_staging opaque_staging

# The runtime verifier, with line tables (RelWithDebInfo), its own CUPTI
# tracing off (CUPTI takes one subscriber: ours).
cmake -S "$ROOT/runtime_verifier" -B "$WORK/verify" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$WORK/verify-cmake.log" 2>&1 &&
  ninja -C "$WORK/verify" > "$WORK/verify-ninja.log" 2>&1 ||
  { tail -30 "$WORK/verify-cmake.log" "$WORK/verify-ninja.log"; exit 1; }
cp "$WORK/verify/cuda-async-verify" "$WORK/bin/"
VERIFY=(--no-trace --no-reproductions --warmup 1 --repeats 3)
for check in pageable-copy default-stream sync-in-loop pinned-alloc-in-loop \
             dealloc-mismatch; do
  for role in buggy fixed; do
    name=verify-$check-$role
    trace "$name" cuda-async-verify "${VERIFY[@]}" \
      --checks "cuda-async-$check" --variants "$role" \
      --json "$WORK/raw/$name.results.json"
  done
done

# Overhead on the reference pipeline: the fixed pageable-copy variant (the
# 4-stream pipeline from pinned memory), 20 timed runs, untraced and traced,
# alternating, three times each.
for i in 1 2 3; do
  for mode in plain traced; do
    out=$WORK/raw/overhead-$mode-$i.json
    if [ $mode = plain ]; then
      "$WORK/bin/cuda-async-verify" --no-trace --no-reproductions \
        --checks cuda-async-pageable-copy --variants fixed --repeats 20 \
        --json "$out" > /dev/null 2>&1
    else
      CUDA_INJECTION64_PATH=$INJECTION \
      CUDA_ASYNC_TRACE_OUTPUT=$WORK/overhead-raw.%p.json \
      "$WORK/bin/cuda-async-verify" --no-trace --no-reproductions \
        --checks cuda-async-pageable-copy --variants fixed --repeats 20 \
        --json "$out" > /dev/null 2>&1
    fi
    echo "overhead $mode $i exit $?"
  done
done

tar -C "$WORK" -czf "$OUT/gpu-trace.tar.gz" bin raw
ls -la "$WORK/raw"
