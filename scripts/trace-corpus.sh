#!/bin/bash
# Runs the tracer's public-programs corpus (docs/runtime-trace/corpus.md) on
# a GPU machine: builds each program from its own checkout (nothing of them
# is in this repository) and runs it traced with race detection, then packs
# the raw traces and the programs (their DWARF symbolizes the traces):
#
#   CUDA_SAMPLES=DIR BLOG=DIR scripts/trace-corpus.sh INJECTION OUTDIR
#     -> OUTDIR/corpus.tar.gz
#
# CUDA_SAMPLES: a checkout of NVIDIA/cuda-samples (commit c94ff366);
# BLOG: of NVIDIA-developer-blog/code-samples (commit 72d62ec), its
# series/cuda-cpp/overlap-data-transfers and optimize-data-transfers files.
# MGPM, if set: of NVIDIA/multi-gpu-programming-models (commit 9a600f5),
# its Jacobi solvers that drive one GPU per OpenMP thread
# (multi_threaded_copy, multi_threaded_copy_overlap, multi_threaded_p2p)
# or all GPUs from one thread (single_threaded_copy), named mgpm_DIR.
# NCCL_TESTS, if set: of NVIDIA/nccl-tests (commit a0b82b2), built by its
# Makefile against NCCL_HOME (a directory with include/nccl.h and
# lib/libnccl.so), its all_reduce_perf, broadcast_perf and sendrecv_perf
# run on one GPU (-b 8 -e 64M -f 4 -g 1), named nccl_NAME.
# LLMC, if set: of karpathy/llm.c (commit f1e2ace), the dev/cuda benchmarks
# matmul_forward, attention_forward, layernorm_forward (kernel 1),
# adamw and global_norm, on cuBLAS and cuBLASLt, named llmc_NAME.
# INJECTION: libcuda-async-trace-injection.so (scripts/gpu-trace.sh builds
# it). Each program runs at most T seconds (60), once untraced and once
# traced with CUDA_ASYNC_TRACE_RACES=$RACES (1; "full" for whole copies). Finish the traces where LLVM
# is: cuda-async-trace --finish raw/NAME.*.raw.json --symbols bin.
# ONLY, if set: a regular expression; only the programs it matches run.
set -u
INJ=${1:?usage: trace-corpus.sh INJECTION OUTDIR}
OUT=${2:?usage: trace-corpus.sh INJECTION OUTDIR}
CS=${CUDA_SAMPLES:?set CUDA_SAMPLES to a cuda-samples checkout}
BLOG=${BLOG:?set BLOG to a code-samples checkout}
# Absolute: the builds run in the output's bin/.
CS=$(cd "$CS" && pwd) && BLOG=$(cd "$BLOG" && pwd) && INJ=$(realpath -m "$INJ") ||
  exit 2
W=${WORK:-/tmp/cuda-async-trace-corpus}
rm -rf "$W"; mkdir -p "$W/bin" "$W/raw" "$OUT"
NV=(nvcc -g -O2 -arch=sm_90 -I"$CS/Common")

# sample NAME: the sample's directory in the checkout.
sample() { find "$CS" -type d -name "$1" -not -path '*/.git/*' | head -1; }
# build NAME FILES... [FLAGS...], in the background.
build() {
  local name=$1; shift
  [[ -z ${ONLY:-} || $name =~ $ONLY ]] || return 0
  ( cd "$W/bin" && "${NV[@]}" -o "$name" "$@" ) > "$W/raw/$name.build.log" 2>&1 ||
    { echo "BUILD FAIL $name"; tail -5 "$W/raw/$name.build.log"; } &
}
one() { local name=$1 d; d=$(sample "$name"); build "$name" "$d/$name.cu" "${@:2}"; }
for s in simpleStreams simpleMultiCopy simpleHyperQ asyncAPI simpleMultiGPU \
         simpleCudaGraphs StreamPriorities simpleZeroCopy \
         streamOrderedAllocation graphMemoryNodes; do
  one "$s"
done
d=$(sample simpleCallback)
build simpleCallback "$d/simpleCallback.cu" "$d/multithreading.cpp"
one cudaOpenMP -Xcompiler -fopenmp -lgomp
d=$(sample MonteCarloMultiGPU)
build MonteCarloMultiGPU "$d/MonteCarloMultiGPU.cpp" "$d/MonteCarlo_gold.cpp" \
  "$d/MonteCarlo_kernel.cu" "$d/multithreading.cpp" -lcurand
d=$(sample jacobiCudaGraphs)
build jacobiCudaGraphs "$d/jacobi.cu" "$d/main.cpp"
d=$(sample binomialOptions)
build binomialOptions "$d/binomialOptions.cpp" "$d/binomialOptions_gold.cpp" \
  "$d/binomialOptions_kernel.cu"
for f in async bandwidthtest profile; do
  build "$f" "$(find "$BLOG" -name "$f.cu" | head -1)"
done
if [ -n "${MGPM:-}" ]; then
  MGPM=$(cd "$MGPM" && pwd) || exit 2
  for d in multi_threaded_copy multi_threaded_copy_overlap multi_threaded_p2p \
           single_threaded_copy; do
    build "mgpm_$d" "$MGPM/$d/jacobi.cu" -Xcompiler -fopenmp -DHAVE_CUB \
      -DUSE_NVTX -ldl -std=c++17 -lineinfo
  done
fi
NCCL_PERF=(all_reduce_perf broadcast_perf sendrecv_perf)
if [ -n "${NCCL_TESTS:-}" ] && [[ -z ${ONLY:-} || nccl_ =~ $ONLY ]]; then
  NCCL_TESTS=$(cd "$NCCL_TESTS" && pwd) &&
    NCCL_HOME=$(cd "${NCCL_HOME:?set NCCL_HOME with NCCL_TESTS}" && pwd) ||
    exit 2
  make -C "$NCCL_TESTS" -j 8 NCCL_HOME="$NCCL_HOME" BUILDDIR="$W/nccl-tests" \
    NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90" \
    > "$W/raw/nccl-tests.build.log" 2>&1 ||
    { echo "BUILD FAIL nccl-tests"; tail -5 "$W/raw/nccl-tests.build.log"; }
  for t in "${NCCL_PERF[@]}"; do
    [ -x "$W/nccl-tests/$t" ] && cp "$W/nccl-tests/$t" "$W/bin/nccl_$t"
  done
  export LD_LIBRARY_PATH="$NCCL_HOME/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
if [ -n "${LLMC:-}" ]; then
  LLMC=$(cd "$LLMC" && pwd) || exit 2
  for p in matmul_forward attention_forward layernorm_forward adamw \
           global_norm; do
    build "llmc_$p" "$LLMC/dev/cuda/$p.cu" --use_fast_math -Xcompiler \
      -fopenmp -lcublas -lcublasLt
  done
fi
wait

# Each program's arguments: the defaults, but for these.
args() {
  case $1 in
  nccl_*) echo "-b 8 -e 64M -f 4 -g 1" ;;
  llmc_matmul_forward | llmc_attention_forward | llmc_layernorm_forward)
    echo 1 ;;
  esac
}

# Each program runs untraced, then traced: the log's last lines say the
# exit status and both wall times (what tracing cost the user).
now() { date +%s.%N; }
for f in "$W"/bin/*; do
  p=$(basename "$f")
  read -ra ARGS <<< "$(args "$p")"
  echo "== $p"
  start=$(now)
  ( cd "$W/bin" && timeout -s KILL "${T:-60}" ./"$p" "${ARGS[@]}" ) \
    > "$W/raw/$p.untraced.log" 2>&1
  plain=$(echo "$(now) - $start" | awk '{printf "%.2f", $1 - $3}')
  start=$(now)
  ( cd "$W/bin" && CUDA_INJECTION64_PATH=$INJ CUDA_ASYNC_TRACE_RACES=${RACES:-1} \
      CUDA_ASYNC_TRACE_OUTPUT=$W/raw/$p.%p.raw.json \
      timeout -s KILL "${T:-60}" ./"$p" "${ARGS[@]}" ) > "$W/raw/$p.log" 2>&1
  status=$?
  traced=$(echo "$(now) - $start" | awk '{printf "%.2f", $1 - $3}')
  echo "exit $status" >> "$W/raw/$p.log"
  echo "wall untraced ${plain} s, traced ${traced} s" >> "$W/raw/$p.log"
  tail -3 "$W/raw/$p.log"
done
tar -C "$W" -czf "$OUT/corpus.tar.gz" bin raw
