#!/bin/bash
# Runs on a machine with an NVIDIA GPU (the device tool's, or yours), with
# CUDA and CMake but no LLVM: builds the tracer's injection library, the
# examples, test/tracer/Inputs/gpu's programs and the runtime verifier with
# line tables; runs each under the tracer with race detection (the verifier
# once with its buggy variants, once with its fixed ones, per check); times
# the verifier's reference pipeline and a program of many copies untraced,
# traced, and traced with race detection (the overhead); and packs the raw
# traces, the logs and the programs (their DWARF symbolizes the traces) into
# one archive:
#
#   scripts/gpu-trace.sh OUTDIR        ->  OUTDIR/gpu-trace.tar.gz
#
# PARTS="traces verify overhead" (the default) picks what runs, so that each
# part fits in a shorter session; the archive holds what ran.
#
# Then, where LLVM is, scripts/runtime-trace.py finishes the traces and
# joins them with the linter's findings into docs/runtime-trace/.
set -u -o pipefail
OUT=${1:?usage: gpu-trace.sh OUTDIR}
PARTS=" ${PARTS:-traces verify overhead} "
part() { [[ $PARTS == *" $1 "* ]]; }
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

# trace NAME PROGRAM [ARGS...]: raw traces raw/NAME.<pid>.raw.json, with
# race detection (cuda-async-trace --races) unless RACES=0; a program still
# running after TRACE_TIMEOUT seconds (120) is killed, its log says so.
trace() {
  local name=$1 program=$2; shift 2
  echo "== $name"
  ( cd "$WORK/bin" &&
    CUDA_INJECTION64_PATH=$INJECTION \
    CUDA_ASYNC_TRACE_OUTPUT=$WORK/raw/$name.%p.raw.json \
    CUDA_ASYNC_TRACE_RACES=${RACES:-1} \
    timeout -s KILL "${TRACE_TIMEOUT:-120}" ./"$program" "$@" ) \
    > "$WORK/raw/$name.log" 2>&1
  echo "exit $?" >> "$WORK/raw/$name.log"
  tail -3 "$WORK/raw/$name.log"
}

if part traces; then
  for f in "$ROOT"/examples/*.cu "$ROOT"/examples/*.cpp; do
    rel=${f#"$ROOT"/}
    name=$(basename "${f%.*}")
    build "$name" "$rel" && trace "$name" "$name"
  done
  build opaque_staging test/tracer/Inputs/gpu/opaque_staging.cu \
    test/tracer/Inputs/gpu/staging_buffer.cpp &&
    trace opaque_staging opaque_staging
  build opaque_race test/tracer/Inputs/gpu/opaque_race.cu \
    test/tracer/Inputs/gpu/results_reader.cpp && trace opaque_race opaque_race
  # Beyond one stream's 1D copies: a captured graph launched again and
  # again, 2D/3D copies, several devices from several threads (each file
  # says what it must report).
  for name in graph_copies pitched_copies devices_threads; do
    build $name test/tracer/Inputs/gpu/$name.cu && trace $name $name
  done
fi

# The runtime verifier, with line tables (RelWithDebInfo), its own CUPTI
# tracing off (CUPTI takes one subscriber: ours).
cmake -S "$ROOT/runtime_verifier" -B "$WORK/verify" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$WORK/verify-cmake.log" 2>&1 &&
  ninja -C "$WORK/verify" > "$WORK/verify-ninja.log" 2>&1 ||
  { tail -30 "$WORK/verify-cmake.log" "$WORK/verify-ninja.log"; exit 1; }
cp "$WORK/verify/cuda-async-verify" "$WORK/bin/"
VERIFY=(--no-trace --no-reproductions --warmup 1 --repeats 3)
if part verify; then
  for check in pageable-copy default-stream sync-in-loop \
               pinned-alloc-in-loop dealloc-mismatch unsynchronized-access; do
    for role in buggy fixed; do
      name=verify-$check-$role
      trace "$name" cuda-async-verify "${VERIFY[@]}" \
        --checks "cuda-async-$check" --variants "$role" \
        --json "$WORK/raw/$name.results.json"
    done
  done
fi

# Overhead (scripts/race-cost.py summarizes it): the reference pipeline (the fixed pageable-copy variant: 4
# streams from pinned memory, 20 timed runs) and small_copies (4 KiB copies,
# the cost per copy; 64 MiB copies, the cost per byte), untraced, traced,
# and traced with race detection, alternating, three processes each.
# The traces of the timed runs: raw/cost.NAME.MODE.PID.json (the race
# detector's mprotect time is in them).
run_mode() {
  local mode=$1 name=$2; shift 2
  case $mode in
  plain) "$@" ;;
  traced) CUDA_INJECTION64_PATH=$INJECTION \
          CUDA_ASYNC_TRACE_OUTPUT=$WORK/raw/cost.$name.$mode.%p.json "$@" ;;
  races) CUDA_INJECTION64_PATH=$INJECTION CUDA_ASYNC_TRACE_RACES=1 \
         CUDA_ASYNC_TRACE_OUTPUT=$WORK/raw/cost.$name.$mode.%p.json "$@" ;;
  races-full) CUDA_INJECTION64_PATH=$INJECTION CUDA_ASYNC_TRACE_RACES=full \
         CUDA_ASYNC_TRACE_OUTPUT=$WORK/raw/cost.$name.$mode.%p.json "$@" ;;
  esac
}
part overhead && build small_copies test/tracer/Inputs/gpu/small_copies.cu
for i in 1 2 3; do
  part overhead || break
  for mode in plain traced races races-full; do
    run_mode $mode pipeline "$WORK/bin/cuda-async-verify" --no-trace --no-reproductions \
      --checks cuda-async-pageable-copy --variants fixed --repeats 20 \
      --json "$WORK/raw/overhead-$mode-$i.json" > /dev/null 2>&1
    echo "overhead $mode $i exit $?"
    run_mode $mode copies-4096 "$WORK/bin/small_copies" 4096 100000 \
      > "$WORK/raw/copies-4096-$mode-$i.txt" 2>&1
    run_mode $mode copies-67108864 "$WORK/bin/small_copies" 67108864 200 \
      > "$WORK/raw/copies-67108864-$mode-$i.txt" 2>&1
    cat "$WORK/raw/copies-4096-$mode-$i.txt" \
      "$WORK/raw/copies-67108864-$mode-$i.txt"
  done
done

tar -C "$WORK" -czf "$OUT/gpu-trace.tar.gz" bin raw
ls -la "$WORK/raw"
