#!/usr/bin/env python3
"""Recall on real code: one realistic bug injected per copy of a real file.

  scripts/injected-bugs.py CUDA_SAMPLES [--code-samples DIR] [--corpus DIR]
                           -o RESULTS.json [-j N] [--only REGEX] [--lint PATH]

CUDA_SAMPLES is a checkout of NVIDIA/cuda-samples (commit c94ff366),
--code-samples one of NVIDIA-developer-blog/code-samples (commit 72d62ec);
nothing of either is in this repository: the edits below, and those of scripts/injected_edits/
for the other repositories of docs/real-code/corpus.json (checked out under
--corpus DIR, each as the manifest names it, and linted with the manifest's
include paths and macros), are all this script holds. Each edit names a file and one or more changes, each text that occurs
in the file exactly once and what replaces it: together one small change
that creates one bug of one check. For each, the pristine file and the edited
copy (beside it, so that its includes resolve) are linted on their own, as
docs/real-code.md lints every file:
`cuda-async-lint --format=json FILE -- -I CUDA_SAMPLES/Common`. An edit is
found when the edited file has a finding of its check, at or with a note
within 3 lines of an edited statement (or of the line where the bug shows,
for an edit that deletes a wait), that the pristine file (its lines mapped through
the edit) does not have. Prints the recall per check and every miss;
RESULTS.json keeps each edit's findings. The pristine files' findings are
printed too: they must all be true (docs/real-code/cuda-samples.verdicts.tsv).

A missed edit is checked for being compiled at all: a copy with an `#error`
line before its first edited line is linted, and an edit the preprocessor
skips (inside `#if 0`, or the `#else` of `#if 1`) is not scored ("dead":
no compiler sees the bug), listed beside the misses with the reason.
"""
import argparse
import collections
import concurrent.futures
import difflib
import json
import os
import re
import shutil
import subprocess
import tempfile
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WINDOW = 3
MANIFEST = os.path.join(ROOT, "docs", "real-code", "corpus.json")


# The edit helpers, and the other repositories' edits (one module each).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import injected_edits  # noqa: E402
from corpus_manifest import compiled_as_cuda  # noqa: E402
from injected_edits import after, before, delete, edit, sub  # noqa: E402,F401


# The two corpora: where each edit's path points.
CS = "cuda-samples:"
BLOG = "code-samples:"
INTRO = CS + "Samples/0_Introduction/"
SS = INTRO + "simpleStreams/simpleStreams.cu"
SMC = INTRO + "simpleMultiCopy/simpleMultiCopy.cu"
AA = INTRO + "asyncAPI/asyncAPI.cu"
MM = INTRO + "matrixMul/matrixMul.cu"
HQ = INTRO + "simpleHyperQ/simpleHyperQ.cu"
MG = INTRO + "simpleMultiGPU/simpleMultiGPU.cu"
CB = INTRO + "simpleCallback/simpleCallback.cu"
ZC = INTRO + "simpleZeroCopy/simpleZeroCopy.cu"
SP = CS + "Samples/3_CUDA_Features/StreamPriorities/StreamPriorities.cu"
MCK = CS + "Samples/5_Domain_Specific/MonteCarloMultiGPU/MonteCarlo_kernel.cu"
MCM = CS + "Samples/5_Domain_Specific/MonteCarloMultiGPU/MonteCarloMultiGPU.cpp"
AS = BLOG + "series/cuda-cpp/overlap-data-transfers/async.cu"
BW = BLOG + "series/cuda-cpp/optimize-data-transfers/bandwidthtest.cu"

# Recurring text of the programs.
SS_D2H_LOOP_END = ("                                            cudaMemcpyDeviceToHost,\n"
                   "                                            streams[i]));\n"
                   "        }\n")
SS_KERNEL = "            init_array<<<blocks, threads, 0, streams[i]>>>(d_a + i * n / nstreams, d_c, niterations);\n"
SMC_RECORD = "        checkCudaErrors(cudaEventRecord(cycleDone[current_stream], stream[current_stream]));\n"
SMC_KERNEL = "        incKernel<<<grid, block, 0, stream[current_stream]>>>(\n"
SMC_H2D = ("        checkCudaErrors(cudaMemcpyAsync(\n"
           "            d_data_in[next_stream], h_data_in[next_stream], memsize, cudaMemcpyHostToDevice, stream[next_stream]));\n")
SMC_CYCLE_WAIT = "        cudaEventSynchronize(cycleDone[next_stream]);\n"
HQ_KERNEL_A = "        kernel_A<<<1, 1, 0, streams[i]>>>(&d_a[2 * i], time_clocks);\n"
HQ_KERNEL_B = "        kernel_B<<<1, 1, 0, streams[i]>>>(&d_a[2 * i + 1], time_clocks);\n"
MG_KERNEL = "        reduceKernel<<<BLOCK_N, THREAD_N, 0, plan[i].stream>>>(plan[i].d_Sum, plan[i].d_Data, plan[i].dataN);\n"
MG_H2D = ("        checkCudaErrors(cudaMemcpyAsync(\n"
          "            plan[i].d_Data, plan[i].h_Data, plan[i].dataN * sizeof(float), cudaMemcpyHostToDevice, plan[i].stream));\n")
MG_D2H = ("        checkCudaErrors(cudaMemcpyAsync(\n"
          "            plan[i].h_Sum_from_device, plan[i].d_Sum, ACCUM_N * sizeof(float), cudaMemcpyDeviceToHost, plan[i].stream));\n")
AS_V1_TOP = "  for (int i = 0; i < nStreams; ++i) {\n    int offset = i * streamSize;\n"
AS_V1_KERNEL = "    kernel<<<streamSize/blockSize, blockSize, 0, stream[i]>>>(d_a, offset);\n    checkCuda( cudaMemcpyAsync(&a[offset]"
AS_V1_END = ("                               stream[i]) );\n"
             "  }\n"
             "  checkCuda( cudaEventRecord(stopEvent, 0) );\n"
             "  checkCuda( cudaEventSynchronize(stopEvent) );\n"
             "  checkCuda( cudaEventElapsedTime(&ms, startEvent, stopEvent) );\n"
             "  printf(\"Time for asynchronous V1")
AS_V2_KERNEL = "    kernel<<<streamSize/blockSize, blockSize, 0, stream[i]>>>(d_a, offset);\n  }\n"
MC_H2D = ("    checkCudaErrors(cudaMemcpyAsync(\n"
          "        plan->d_OptionData, h_OptionData, plan->optionCount * sizeof(__TOptionData), cudaMemcpyHostToDevice, stream));\n")
MC_D2H = ("    checkCudaErrors(cudaMemcpyAsync(\n"
          "        h_CallValue, plan->d_CallValue, plan->optionCount * sizeof(__TOptionValue), cudaMemcpyDeviceToHost, stream));\n")
MC_KERNEL = "    MonteCarloOneBlockPerOption<<<plan->gridSize, THREAD_N, 0, stream>>>(plan->rngStates,\n"
MCM_RUN = ("        MonteCarloGPU(&plan[i], streams[i]);\n\n"
           "        checkCudaErrors(cudaEventRecord(events[i], streams[i]));\n")
SP_LOOP = "        memcpy_kernel<<<TBLOCKS, THREADS, 0, st_hi>>>(d_dst_hi + j, d_src_hi + j, EACH_SIZE);\n"

EDITS = [
    # cuda-async-unsynchronized-access: the host uses a D2H destination, or
    # refills an H2D source, before the wait for its copy.
    edit("simpleStreams-no-wait", "unsynchronized-access", SS,
         [sub("    checkCudaErrors(cudaEventSynchronize(stop_event));\n"
              "    checkCudaErrors(cudaEventElapsedTime(&elapsed_time, start_event, stop_event));\n"
              "    printf(\"%d streams:",
              "    checkCudaErrors(cudaEventElapsedTime(&elapsed_time, start_event, stop_event));\n"
              "    printf(\"%d streams:")],
         "the wait for the streams' D2H copies into hAligned_a deleted before "
         "correct_data reads it", at="bool bResults = correct_data("),
    edit("asyncAPI-no-poll", "unsynchronized-access", AA,
         [delete("    while (cudaEventQuery(stop) == cudaErrorNotReady) {\n"
                 "        counter++;\n"
                 "    }\n")],
         "the polling loop before the host checks the D2H destination 'a' "
         "deleted", at="bool bFinalResults = correct_output("),
    edit("asyncAPI-clear-early", "unsynchronized-access", AA,
         [delete("    memset(a, 0, nbytes);\n"),
          after("    cudaMemcpyAsync(d_a, a, nbytes, cudaMemcpyHostToDevice, 0);\n",
                "    memset(a, 0, nbytes);\n")],
         "the host buffer cleared after its H2D copy is issued, not before"),
    edit("simpleMultiCopy-no-final-sync", "unsynchronized-access", SMC,
         [delete("    cudaDeviceSynchronize();\n")],
         "the device synchronization after the issuing loop deleted before "
         "the outputs are checked", at="bool bResults = test();"),
    edit("simpleMultiCopy-clear-staging", "unsynchronized-access", SMC,
         [after("    checkCudaErrors(cudaMemcpyAsync(d_data_in[0], h_data_in[0], memsize, cudaMemcpyHostToDevice, 0));\n",
                "    memset(h_data_in[0], 0, memsize);\n")],
         "the staging buffer cleared right after its timed H2D copy is "
         "issued"),
    edit("simpleMultiCopy-peek-output", "unsynchronized-access", SMC,
         [after("    checkCudaErrors(cudaMemcpyAsync(h_data_out[0], d_data_out[0], memsize, cudaMemcpyDeviceToHost, 0));\n",
                "    printf(\"first output: %d\\n\", h_data_out[0][0]);\n")],
         "the D2H destination printed before the event it is timed by is "
         "synchronized"),
    edit("matrixMul-wrong-event", "unsynchronized-access", MM,
         [sub("    checkCudaErrors(cudaMemcpyAsync(h_C, d_C, mem_size_C, cudaMemcpyDeviceToHost, stream));\n"
              "    checkCudaErrors(cudaStreamSynchronize(stream));\n",
              "    checkCudaErrors(cudaMemcpyAsync(h_C, d_C, mem_size_C, cudaMemcpyDeviceToHost, stream));\n"
              "    checkCudaErrors(cudaEventSynchronize(stop));\n")],
         "the result read after a wait for the timing event, recorded before "
         "the D2H copy", at="double abs_err    = fabs(h_C[i]"),
    edit("matrixMul-no-wait", "unsynchronized-access", MM,
         [sub("    checkCudaErrors(cudaStreamSynchronize(stream));\n\n"
              "    printf(\"Checking computed result",
              "\n    printf(\"Checking computed result")],
         "the stream sync after the result's D2H copy deleted",
         at="double abs_err    = fabs(h_C[i]"),
    edit("matrixMul-init-late", "unsynchronized-access", MM,
         [delete("    ConstantInit(h_B, size_B, valB);\n"),
          after("    checkCudaErrors(cudaMemcpyAsync(d_B, h_B, mem_size_B, cudaMemcpyHostToDevice, stream));\n",
                "    ConstantInit(h_B, size_B, valB);\n")],
         "matrix B initialized after its H2D copy is issued"),
    edit("simpleMultiGPU-no-wait", "unsynchronized-access", MG,
         [delete("        cudaStreamSynchronize(plan[i].stream);\n")],
         "the per-GPU stream sync before the host sums the D2H destination "
         "deleted", at="sum += plan[i].h_Sum_from_device[j];"),
    edit("simpleMultiGPU-late-wait", "unsynchronized-access", MG,
         [delete("        cudaStreamSynchronize(plan[i].stream);\n"),
          sub("        *(plan[i].h_Sum) = (float)sum;\n",
              "        *(plan[i].h_Sum) = (float)sum;\n"
              "        cudaStreamSynchronize(plan[i].stream);\n")],
         "the per-GPU stream sync moved after the host sums the D2H "
         "destination", at="sum += plan[i].h_Sum_from_device[j];"),
    edit("simpleCallback-debug-print", "unsynchronized-access", CB,
         [before("    checkCudaErrors(cudaStreamAddCallback(workload->stream, myStreamCallback, workload, 0));\n",
                 "    printf(\"workload %d: %d\\n\", workload->id, workload->h_data[0]);\n")],
         "a debug print of the D2H destination before the callback that "
         "runs when the stream is done"),
    edit("simpleCallback-fill-late", "unsynchronized-access", CB,
         [delete("    for (int i = 0; i < N_elements_per_workload; ++i) {\n"
                 "        workload->h_data[i] = workload->id + i;\n"
                 "    }\n"),
          before("    incKernel<<<grid, block, 0, workload->stream>>>",
                 "    for (int i = 0; i < N_elements_per_workload; ++i) {\n"
                 "        workload->h_data[i] = workload->id + i;\n"
                 "    }\n")],
         "the pinned input filled after its H2D copy is issued"),
    edit("simpleHyperQ-async-result", "unsynchronized-access", HQ,
         [sub("    checkCudaErrors(cudaMemcpy(a, d_a, sizeof(clock_t), cudaMemcpyDeviceToHost));\n",
              "    checkCudaErrors(cudaMemcpyAsync(a, d_a, sizeof(clock_t), cudaMemcpyDeviceToHost, streams[0]));\n")],
         "the result's blocking copy made async on a created stream; the "
         "timing event's wait does not cover it",
         at="bool bTestResult = (a[0] >= total_clocks);"),
    edit("MonteCarlo-fill-late", "unsynchronized-access", MCK,
         [delete("        h_OptionData[i].S        = (real)plan->optionData[i].S;\n"),
          after(MC_H2D, "    for (int i = 0; i < plan->optionCount; i++)\n"
                        "        h_OptionData[i].S = (real)plan->optionData[i].S;\n")],
         "the pinned option data (a field pinned in initMonteCarloGPU) "
         "written after its H2D copy is issued"),
    edit("MonteCarlo-peek-result", "unsynchronized-access", MCK,
         [after(MC_D2H, "    printf(\"first call value: %f\\n\", (double)h_CallValue[0].Expected);\n")],
         "the D2H destination printed before the caller waits for the "
         "stream"),
    edit("async-V1-no-wait", "unsynchronized-access", AS,
         [sub(AS_V1_END, AS_V1_END.replace(
             "  checkCuda( cudaEventSynchronize(stopEvent) );\n", ""))],
         "the wait for the V1 pipeline deleted before maxError reads the "
         "D2H destination",
         at='printf("  max error: %e\\n", maxError(a, n));\n\n  // asynchronous version 2'),
    edit("async-V2-no-wait", "unsynchronized-access", AS,
         [sub("  checkCuda( cudaEventSynchronize(stopEvent) );\n"
              "  checkCuda( cudaEventElapsedTime(&ms, startEvent, stopEvent) );\n"
              "  printf(\"Time for asynchronous V2",
              "  checkCuda( cudaEventElapsedTime(&ms, startEvent, stopEvent) );\n"
              "  printf(\"Time for asynchronous V2")],
         "the wait for the V2 pipeline deleted before maxError reads the "
         "D2H destination",
         at='printf("  max error: %e\\n", maxError(a, n));\n\n  // cleanup'),
    edit("async-V1-event-on-stream", "unsynchronized-access", AS,
         [sub(AS_V1_END, AS_V1_END.replace(
             "cudaEventRecord(stopEvent, 0)", "cudaEventRecord(stopEvent, stream[0])"))],
         "the V1 stop event recorded on the first stream: its wait does not "
         "cover the other streams' D2H copies",
         at='printf("  max error: %e\\n", maxError(a, n));\n\n  // asynchronous version 2'),
    edit("async-V2-reset-early", "unsynchronized-access", AS,
         [sub(AS_V1_END, AS_V1_END.replace(
             "  checkCuda( cudaEventRecord(stopEvent, 0) );\n",
             "  memset(a, 0, bytes);\n  checkCuda( cudaEventRecord(stopEvent, 0) );\n"))],
         "the host buffer reset for the next version before the V1 "
         "pipeline's D2H copies are waited for"),
    edit("simpleStreams-reset-early", "unsynchronized-access", SS,
         [sub("    checkCudaErrors(cudaEventRecord(stop_event, 0));\n"
              "    checkCudaErrors(cudaEventSynchronize(stop_event));\n"
              "    checkCudaErrors(cudaEventElapsedTime(&elapsed_time, start_event, stop_event));\n"
              "    printf(\"%d streams:",
              "    memset(hAligned_a, 0, nbytes);\n"
              "    checkCudaErrors(cudaEventRecord(stop_event, 0));\n"
              "    checkCudaErrors(cudaEventSynchronize(stop_event));\n"
              "    checkCudaErrors(cudaEventElapsedTime(&elapsed_time, start_event, stop_event));\n"
              "    printf(\"%d streams:")],
         "the host array cleared before the streams' D2H copies into it are "
         "waited for"),
    edit("simpleMultiGPU-fill-late", "unsynchronized-access", MG,
         [after(MG_H2D, "        plan[i].h_Data[0] = 0;\n")],
         "the pinned input written right after its H2D copy is issued"),

    # cuda-async-sync-in-loop: a wait for the iteration's own work inside a
    # multi-stream issuing loop.
    edit("simpleStreams-sync-in-loop", "sync-in-loop", SS,
         [sub(SS_D2H_LOOP_END, SS_D2H_LOOP_END.replace(
             "        }\n", "            checkCudaErrors(cudaDeviceSynchronize());\n        }\n"))],
         "cudaDeviceSynchronize after each stream's D2H copy in the issuing "
         "loop"),
    edit("simpleStreams-stream-sync-kernel", "sync-in-loop", SS,
         [after(SS_KERNEL, "            checkCudaErrors(cudaStreamSynchronize(streams[i]));\n")],
         "each stream's kernel waited for in the launching loop"),
    edit("simpleStreams-blocking-copy", "sync-in-loop", SS,
         [sub("            checkCudaErrors(cudaMemcpyAsync(hAligned_a + i * n / nstreams,\n"
              "                                            d_a + i * n / nstreams,\n"
              "                                            nbytes / nstreams,\n"
              "                                            cudaMemcpyDeviceToHost,\n"
              "                                            streams[i]));\n",
              "            checkCudaErrors(cudaMemcpy(hAligned_a + i * n / nstreams,\n"
              "                                       d_a + i * n / nstreams,\n"
              "                                       nbytes / nstreams,\n"
              "                                       cudaMemcpyDeviceToHost));\n")],
         "the per-stream D2H copies made blocking cudaMemcpy in the issuing "
         "loop"),
    edit("simpleStreams-event-sync", "sync-in-loop", SS,
         [sub(SS_D2H_LOOP_END, SS_D2H_LOOP_END.replace(
             "        }\n", "            checkCudaErrors(cudaEventRecord(stop_event, streams[i]));\n"
                           "            checkCudaErrors(cudaEventSynchronize(stop_event));\n        }\n"))],
         "an event recorded after each stream's D2H copy and waited for in "
         "the loop"),
    edit("simpleMultiCopy-stream-sync", "sync-in-loop", SMC,
         [after(SMC_RECORD, "        cudaStreamSynchronize(stream[current_stream]);\n")],
         "a stream sync of the iteration's own work in the double-buffered "
         "loop"),
    edit("simpleMultiCopy-device-sync", "sync-in-loop", SMC,
         [after(SMC_RECORD, "        checkCudaErrors(cudaDeviceSynchronize());\n")],
         "a device sync at the end of each cycle"),
    edit("simpleMultiCopy-event-sync", "sync-in-loop", SMC,
         [after(SMC_RECORD, "        cudaEventSynchronize(cycleDone[current_stream]);\n")],
         "the cycle's own event waited for right after it is recorded"),
    edit("simpleMultiCopy-blocking-upload", "sync-in-loop", SMC,
         [sub(SMC_H2D,
              "        checkCudaErrors(cudaMemcpy(\n"
              "            d_data_in[next_stream], h_data_in[next_stream], memsize, cudaMemcpyHostToDevice));\n")],
         "the next frame's upload made a blocking cudaMemcpy in the cycle"),
    edit("simpleHyperQ-stream-sync", "sync-in-loop", HQ,
         [after(HQ_KERNEL_B, "        checkCudaErrors(cudaStreamSynchronize(streams[i]));\n")],
         "each stream's kernel pair waited for in the launching loop"),
    edit("simpleHyperQ-device-sync", "sync-in-loop", HQ,
         [after(HQ_KERNEL_B, "        checkCudaErrors(cudaDeviceSynchronize());\n")],
         "a device sync after each stream's kernel pair"),
    edit("simpleHyperQ-sync-between", "sync-in-loop", HQ,
         [after(HQ_KERNEL_A, "        checkCudaErrors(cudaStreamSynchronize(streams[i]));\n")],
         "kernel_A waited for before kernel_B is launched on its stream"),
    edit("simpleMultiGPU-stream-sync", "sync-in-loop", MG,
         [after(MG_D2H, "        checkCudaErrors(cudaStreamSynchronize(plan[i].stream));\n")],
         "each GPU's stream waited for in the issuing loop"),
    edit("simpleMultiGPU-device-sync", "sync-in-loop", MG,
         [after(MG_KERNEL, "        checkCudaErrors(cudaDeviceSynchronize());\n")],
         "each GPU's kernel waited for in the issuing loop"),
    edit("async-V1-stream-sync", "sync-in-loop", AS,
         [sub(AS_V1_END, AS_V1_END.replace(
             "stream[i]) );\n  }\n", "stream[i]) );\n    checkCuda( cudaStreamSynchronize(stream[i]) );\n  }\n", 1))],
         "each stream's D2H copy waited for in the V1 loop"),
    edit("async-V1-device-sync", "sync-in-loop", AS,
         [sub(AS_V1_KERNEL, AS_V1_KERNEL.replace(
             "(d_a, offset);\n", "(d_a, offset);\n    checkCuda( cudaDeviceSynchronize() );\n"))],
         "a device sync after each stream's kernel in the V1 loop"),
    edit("async-V1-blocking-copy", "sync-in-loop", AS,
         [sub("    checkCuda( cudaMemcpyAsync(&a[offset], &d_a[offset], \n"
              "                               streamBytes, cudaMemcpyDeviceToHost,\n"
              "                               stream[i]) );\n  }\n  checkCuda( cudaEventRecord(stopEvent, 0) );\n"
              "  checkCuda( cudaEventSynchronize(stopEvent) );\n"
              "  checkCuda( cudaEventElapsedTime(&ms, startEvent, stopEvent) );\n"
              "  printf(\"Time for asynchronous V1",
              "    checkCuda( cudaMemcpy(&a[offset], &d_a[offset], \n"
              "                          streamBytes, cudaMemcpyDeviceToHost) );\n  }\n  checkCuda( cudaEventRecord(stopEvent, 0) );\n"
              "  checkCuda( cudaEventSynchronize(stopEvent) );\n"
              "  checkCuda( cudaEventElapsedTime(&ms, startEvent, stopEvent) );\n"
              "  printf(\"Time for asynchronous V1")],
         "the V1 loop's D2H copy made a blocking cudaMemcpy"),
    edit("async-V2-kernel-sync", "sync-in-loop", AS,
         [sub(AS_V2_KERNEL, AS_V2_KERNEL.replace(
             "(d_a, offset);\n", "(d_a, offset);\n    checkCuda( cudaStreamSynchronize(stream[i]) );\n"))],
         "each stream's kernel waited for in the V2 kernel loop"),
    edit("async-V1-event-sync", "sync-in-loop", AS,
         [sub(AS_V1_END, AS_V1_END.replace(
             "stream[i]) );\n  }\n",
             "stream[i]) );\n    checkCuda( cudaEventRecord(dummyEvent, stream[i]) );\n"
             "    checkCuda( cudaEventSynchronize(dummyEvent) );\n  }\n", 1))],
         "an event after each stream's D2H copy waited for in the V1 loop"),
    edit("StreamPriorities-stream-sync", "sync-in-loop", SP,
         [after(SP_LOOP, "        checkCudaErrors(cudaStreamSynchronize(st_hi));\n")],
         "the high-priority stream waited for in the loop that launches on "
         "both"),
    edit("StreamPriorities-device-sync", "sync-in-loop", SP,
         [after(SP_LOOP, "        checkCudaErrors(cudaDeviceSynchronize());\n")],
         "a device sync in the loop that launches on both priority streams"),
    edit("MonteCarlo-stream-sync", "sync-in-loop", MCM,
         [sub(MCM_RUN, MCM_RUN.replace(
             "streams[i]);\n\n", "streams[i]);\n        checkCudaErrors(cudaStreamSynchronize(streams[i]));\n\n", 1))],
         "each GPU's stream waited for in the loop that issues the solves"),
    edit("MonteCarlo-event-sync", "sync-in-loop", MCM,
         [after(MCM_RUN, "        checkCudaErrors(cudaEventSynchronize(events[i]));\n")],
         "each GPU's event waited for right after it is recorded"),

    # cuda-async-default-stream: legacy-stream work between created-stream
    # work.
    edit("simpleStreams-legacy-kernel", "default-stream", SS,
         [sub(SS_KERNEL, SS_KERNEL.replace("<<<blocks, threads, 0, streams[i]>>>", "<<<blocks, threads>>>"))],
         "the kernels of the multi-stream loop launched on the legacy stream"),
    edit("simpleStreams-legacy-copy", "default-stream", SS,
         [sub(SS_D2H_LOOP_END, SS_D2H_LOOP_END.replace("streams[i]));", "0));"))],
         "the per-stream D2H copies issued on stream 0"),
    edit("simpleStreams-legacy-named", "default-stream", SS,
         [sub(SS_D2H_LOOP_END, SS_D2H_LOOP_END.replace("streams[i]));", "cudaStreamLegacy));"))],
         "the per-stream D2H copies issued on cudaStreamLegacy"),
    edit("simpleStreams-omitted-stream", "default-stream", SS,
         [sub(SS_D2H_LOOP_END, SS_D2H_LOOP_END.replace(
             "                                            cudaMemcpyDeviceToHost,\n"
             "                                            streams[i]));",
             "                                            cudaMemcpyDeviceToHost));"))],
         "the stream argument of the per-stream D2H copies left out"),
    edit("simpleMultiCopy-legacy-kernel", "default-stream", SMC,
         [sub(SMC_KERNEL, "        incKernel<<<grid, block>>>(\n")],
         "the cycle's kernel launched on the legacy stream"),
    edit("simpleMultiCopy-legacy-upload", "default-stream", SMC,
         [sub(SMC_H2D, SMC_H2D.replace("stream[next_stream]));", "0));"))],
         "the next frame's upload issued on stream 0"),
    edit("simpleMultiCopy-legacy-download", "default-stream", SMC,
         [sub("                                        cudaMemcpyDeviceToHost,\n"
              "                                        stream[current_stream]));\n",
              "                                        cudaMemcpyDeviceToHost,\n"
              "                                        0));\n")],
         "the current frame's download issued on stream 0"),
    edit("simpleHyperQ-legacy-A", "default-stream", HQ,
         [sub(HQ_KERNEL_A, HQ_KERNEL_A.replace("<<<1, 1, 0, streams[i]>>>", "<<<1, 1>>>"))],
         "kernel_A launched on the legacy stream between the streams' "
         "kernels"),
    edit("simpleHyperQ-legacy-B", "default-stream", HQ,
         [sub(HQ_KERNEL_B, HQ_KERNEL_B.replace("<<<1, 1, 0, streams[i]>>>", "<<<1, 1, 0, 0>>>"))],
         "kernel_B launched on stream 0 between the streams' kernels"),
    edit("simpleMultiGPU-legacy-kernel", "default-stream", MG,
         [sub(MG_KERNEL, MG_KERNEL.replace(", 0, plan[i].stream>>>", ">>>"))],
         "each GPU's kernel launched on the legacy stream between its "
         "stream's copies"),
    edit("simpleMultiGPU-legacy-upload", "default-stream", MG,
         [sub(MG_H2D, MG_H2D.replace("cudaMemcpyHostToDevice, plan[i].stream));", "cudaMemcpyHostToDevice, 0));"))],
         "each GPU's upload issued on stream 0"),
    edit("async-V1-legacy-kernel", "default-stream", AS,
         [sub(AS_V1_KERNEL, AS_V1_KERNEL.replace(", 0, stream[i]>>>", ">>>"))],
         "the V1 loop's kernel launched on the legacy stream"),
    edit("async-V1-legacy-upload", "default-stream", AS,
         [sub(AS_V1_TOP + "    checkCuda( cudaMemcpyAsync(&d_a[offset], &a[offset], \n"
              "                               streamBytes, cudaMemcpyHostToDevice, \n"
              "                               stream[i]) );\n",
              AS_V1_TOP + "    checkCuda( cudaMemcpyAsync(&d_a[offset], &a[offset], \n"
              "                               streamBytes, cudaMemcpyHostToDevice, \n"
              "                               0) );\n")],
         "the V1 loop's upload issued on stream 0"),
    edit("async-V1-legacy-download", "default-stream", AS,
         [sub(AS_V1_END, AS_V1_END.replace("stream[i]) );\n  }\n", "0) );\n  }\n", 1))],
         "the V1 loop's download issued on stream 0"),
    edit("async-V2-legacy-kernel", "default-stream", AS,
         [sub(AS_V2_KERNEL, AS_V2_KERNEL.replace(", 0, stream[i]>>>", ">>>"))],
         "the V2 kernel loop launched on the legacy stream"),
    edit("async-V2-legacy-upload", "default-stream", AS,
         [sub("                               streamBytes, cudaMemcpyHostToDevice,\n"
              "                               stream[i]) );\n",
              "                               streamBytes, cudaMemcpyHostToDevice,\n"
              "                               0) );\n")],
         "the V2 upload loop issued on stream 0"),
    edit("simpleCallback-legacy-kernel", "default-stream", CB,
         [sub("    incKernel<<<grid, block, 0, workload->stream>>>", "    incKernel<<<grid, block>>>")],
         "the workload's kernel launched on the legacy stream between its "
         "stream's copies"),
    edit("simpleCallback-legacy-upload", "default-stream", CB,
         [sub("                                    cudaMemcpyHostToDevice,\n"
              "                                    workload->stream));\n",
              "                                    cudaMemcpyHostToDevice,\n"
              "                                    0));\n")],
         "the workload's upload issued on stream 0"),
    edit("MonteCarlo-legacy-kernel", "default-stream", MCK,
         [sub(MC_KERNEL, MC_KERNEL.replace(", 0, stream>>>", ">>>"))],
         "the solver kernel launched on the legacy stream between the "
         "given stream's copies"),
    edit("MonteCarlo-legacy-upload", "default-stream", MCK,
         [sub(MC_H2D, MC_H2D.replace("cudaMemcpyHostToDevice, stream));", "cudaMemcpyHostToDevice, 0));"))],
         "the option data's upload issued on stream 0"),
    edit("matrixMul-blocking-stream", "default-stream", MM,
         [sub("    checkCudaErrors(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));\n",
              "    checkCudaErrors(cudaStreamCreate(&stream));\n"),
          sub("        MatrixMulCUDA<32><<<grid, threads, 0, stream>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);\n    }\n\n    printf(\"done",
              "        MatrixMulCUDA<32><<<grid, threads>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);\n    }\n\n    printf(\"done")],
         "the stream created blocking and the warm-up kernel launched on the "
         "legacy stream", at="MatrixMulCUDA<32><<<grid, threads>>>"),

    # cuda-async-pinned-alloc-in-loop: pinning in every iteration.
    edit("simpleMultiCopy-pin-in-loop", "pinned-alloc-in-loop", SMC,
         [after(SMC_CYCLE_WAIT,
                "        checkCudaErrors(cudaFreeHost(h_data_in[next_stream]));\n"
                "        checkCudaErrors(cudaHostAlloc(&h_data_in[next_stream], memsize, cudaHostAllocDefault));\n")],
         "the input staging buffer released and pinned again every cycle"),
    edit("simpleMultiCopy-pin-output", "pinned-alloc-in-loop", SMC,
         [before("        // Download current frame\n",
                 "        checkCudaErrors(cudaFreeHost(h_data_out[current_stream]));\n"
                 "        checkCudaErrors(cudaMallocHost(&h_data_out[current_stream], memsize));\n")],
         "the output buffer released and pinned again every cycle"),
    edit("simpleMultiCopy-register-source", "pinned-alloc-in-loop", SMC,
         [after(SMC_CYCLE_WAIT, "        checkCudaErrors(cudaHostRegister(h_data_source, memsize, 0));\n"),
          before("        current_stream = next_stream;\n",
                 "        checkCudaErrors(cudaHostUnregister(h_data_source));\n")],
         "the source buffer registered and unregistered every cycle"),
    edit("simpleMultiCopy-register-sink", "pinned-alloc-in-loop", SMC,
         [before("        // Download current frame\n",
                 "        checkCudaErrors(cudaHostRegister(h_data_sink, memsize, cudaHostRegisterDefault));\n")],
         "the sink buffer registered in the issuing loop"),
    edit("simpleStreams-register-per-rep", "pinned-alloc-in-loop", SS,
         [after("    for (int k = 0; k < nreps; k++) {\n        // asynchronously launch nstreams kernels, each operating on its own portion\n",
                "        checkCudaErrors(cudaHostRegister(hAligned_a, nbytes, cudaHostRegisterDefault));\n"),
          sub(SS_D2H_LOOP_END + "    }\n",
              SS_D2H_LOOP_END + "        checkCudaErrors(cudaHostUnregister(hAligned_a));\n    }\n")],
         "the host array registered and unregistered around each repetition"),
    edit("simpleStreams-pin-per-copy", "pinned-alloc-in-loop", SS,
         [sub("        for (int i = 0; i < nstreams; i++) {\n"
              "            checkCudaErrors(cudaMemcpyAsync(hAligned_a + i * n / nstreams,\n",
              "        for (int i = 0; i < nstreams; i++) {\n"
              "            int *h_part;\n"
              "            checkCudaErrors(cudaMallocHost((void **)&h_part, nbytes / nstreams));\n"
              "            checkCudaErrors(cudaMemcpyAsync(hAligned_a + i * n / nstreams,\n")],
         "a pinned staging buffer allocated for each stream's copy"),
    edit("simpleStreams-register-blocking-loop", "pinned-alloc-in-loop", SS,
         [sub("        checkCudaErrors(cudaMemcpy(hAligned_a, d_a, nbytes, cudaMemcpyDeviceToHost));\n",
              "        checkCudaErrors(cudaHostRegister(hAligned_a, nbytes, 0));\n"
              "        checkCudaErrors(cudaMemcpy(hAligned_a, d_a, nbytes, cudaMemcpyDeviceToHost));\n"
              "        checkCudaErrors(cudaHostUnregister(hAligned_a));\n")],
         "the destination registered and unregistered around each blocking "
         "copy of the timing loop"),
    edit("simpleStreams-hostalloc-per-rep", "pinned-alloc-in-loop", SS,
         [after("    for (int k = 0; k < nreps; k++) {\n        // asynchronously launch nstreams kernels, each operating on its own portion\n",
                "        int *h_check = 0;\n"
                "        checkCudaErrors(cudaHostAlloc((void **)&h_check, nbytes, cudaHostAllocDefault));\n"),
          sub(SS_D2H_LOOP_END + "    }\n",
              SS_D2H_LOOP_END + "        checkCudaErrors(cudaFreeHost(h_check));\n    }\n")],
         "a pinned check buffer allocated and freed in every repetition"),
    edit("simpleMultiGPU-pin-in-issue", "pinned-alloc-in-loop", MG,
         [delete("        checkCudaErrors(cudaMallocHost((void **)&plan[i].h_Sum_from_device, ACCUM_N * sizeof(float)));\n"),
          before(MG_D2H, "        checkCudaErrors(cudaMallocHost((void **)&plan[i].h_Sum_from_device, ACCUM_N * sizeof(float)));\n")],
         "each GPU's result buffer pinned in the issuing loop, just before "
         "its D2H copy"),
    edit("simpleMultiGPU-hostalloc-in-issue", "pinned-alloc-in-loop", MG,
         [before(MG_D2H, "        float *h_partial;\n"
                         "        checkCudaErrors(cudaHostAlloc((void **)&h_partial, ACCUM_N * sizeof(float), cudaHostAllocPortable));\n")],
         "a pinned partial-sum buffer allocated in the issuing loop"),
    edit("simpleMultiGPU-register-in-issue", "pinned-alloc-in-loop", MG,
         [before(MG_H2D, "        checkCudaErrors(cudaHostRegister(h_SumGPU, sizeof(h_SumGPU), 0));\n")],
         "the sums array registered in each iteration of the issuing loop"),
    edit("async-V1-pin-stage", "pinned-alloc-in-loop", AS,
         [after(AS_V1_TOP, "    float *stage;\n"
                           "    checkCuda( cudaMallocHost((void**)&stage, streamBytes) );\n")],
         "a pinned staging buffer allocated in each V1 iteration"),
    edit("async-V1-hostalloc-free", "pinned-alloc-in-loop", AS,
         [after(AS_V1_TOP, "    float *stage;\n"
                           "    checkCuda( cudaHostAlloc((void**)&stage, streamBytes, cudaHostAllocDefault) );\n"
                           "    checkCuda( cudaFreeHost(stage) );\n")],
         "a pinned buffer allocated and released in each V1 iteration"),
    edit("async-V2-pin-upload", "pinned-alloc-in-loop", AS,
         [sub("  for (int i = 0; i < nStreams; ++i)\n  {\n    int offset = i * streamSize;\n"
              "    checkCuda( cudaMemcpyAsync(&d_a[offset], &a[offset], \n",
              "  for (int i = 0; i < nStreams; ++i)\n  {\n    int offset = i * streamSize;\n"
              "    float *stage;\n"
              "    checkCuda( cudaMallocHost((void**)&stage, streamBytes) );\n"
              "    checkCuda( cudaMemcpyAsync(&d_a[offset], &a[offset], \n")],
         "a pinned buffer allocated in each iteration of the V2 upload loop"),
    edit("async-V2-register-download", "pinned-alloc-in-loop", AS,
         [sub("  for (int i = 0; i < nStreams; ++i)\n  {\n    int offset = i * streamSize;\n"
              "    checkCuda( cudaMemcpyAsync(&a[offset], &d_a[offset], \n",
              "  for (int i = 0; i < nStreams; ++i)\n  {\n    int offset = i * streamSize;\n"
              "    float *out = (float *)malloc(streamBytes);\n"
              "    checkCuda( cudaHostRegister(out, streamBytes, cudaHostRegisterDefault) );\n"
              "    checkCuda( cudaMemcpyAsync(&a[offset], &d_a[offset], \n")],
         "a result buffer registered in each iteration of the V2 download "
         "loop"),
    edit("MonteCarlo-init-in-loop", "pinned-alloc-in-loop", MCM,
         [sub(MCM_RUN, "        initMonteCarloGPU(&plan[i]);\n" + MCM_RUN)],
         "each plan's buffers (pinned in initMonteCarloGPU) allocated in the "
         "loop that issues the solves"),
    edit("MonteCarlo-pin-in-solve", "pinned-alloc-in-loop", MCK,
         [before("    for (int i = 0; i < plan->optionCount; i++) {\n        const double T",
                 "    for (int k = 0; k < 2; k++) {\n"
                 "        checkCudaErrors(cudaMallocHost(&plan->h_OptionData, sizeof(__TOptionData) * (plan->optionCount)));\n"
                 "        checkCudaErrors(cudaMemcpyAsync(plan->d_OptionData, plan->h_OptionData, plan->optionCount * sizeof(__TOptionData), cudaMemcpyHostToDevice, stream));\n"
                 "    }\n")],
         "the option data pinned in a loop of uploads"),
    edit("matrixMul-pin-in-timing", "pinned-alloc-in-loop", MM,
         [after("    for (int j = 0; j < nIter; j++) {\n",
                "        float *h_tmp;\n"
                "        checkCudaErrors(cudaMallocHost(&h_tmp, mem_size_C));\n"
                "        checkCudaErrors(cudaMemcpyAsync(h_tmp, d_C, mem_size_C, cudaMemcpyDeviceToHost, stream));\n")],
         "a pinned snapshot buffer allocated in each timing iteration"),

    # cuda-async-pageable-copy: malloc'd memory in an async copy.
    edit("asyncAPI-malloc", "pageable-copy", AA,
         [sub("    checkCudaErrors(cudaMallocHost((void **)&a, nbytes));\n",
              "    a = (int *)malloc(nbytes);\n"),
          sub("    checkCudaErrors(cudaFreeHost(a));\n", "    free(a);\n")],
         "the host buffer from malloc instead of cudaMallocHost",
         at="cudaMemcpyAsync(d_a, a, nbytes"),
    edit("matrixMul-malloc-A", "pageable-copy", MM,
         [sub("    checkCudaErrors(cudaMallocHost(&h_A, mem_size_A));\n",
              "    h_A = (float *)malloc(mem_size_A);\n"),
          sub("    checkCudaErrors(cudaFreeHost(h_A));\n", "    free(h_A);\n")],
         "matrix A from malloc", at="cudaMemcpyAsync(d_A, h_A"),
    edit("matrixMul-new-B", "pageable-copy", MM,
         [sub("    checkCudaErrors(cudaMallocHost(&h_B, mem_size_B));\n",
              "    h_B = new float[size_B];\n"),
          sub("    checkCudaErrors(cudaFreeHost(h_B));\n", "    delete[] h_B;\n")],
         "matrix B from new[]", at="cudaMemcpyAsync(d_B, h_B"),
    edit("matrixMul-malloc-C", "pageable-copy", MM,
         [sub("    checkCudaErrors(cudaMallocHost(&h_C, mem_size_C));\n",
              "    h_C = reinterpret_cast<float *>(malloc(mem_size_C));\n"),
          sub("    checkCudaErrors(cudaFreeHost(h_C));\n", "    free(h_C);\n")],
         "the result matrix from malloc", at="cudaMemcpyAsync(h_C, d_C"),
    edit("simpleMultiGPU-malloc-data", "pageable-copy", MG,
         [sub("        checkCudaErrors(cudaMallocHost((void **)&plan[i].h_Data, plan[i].dataN * sizeof(float)));\n",
              "        plan[i].h_Data = (float *)malloc(plan[i].dataN * sizeof(float));\n"),
          sub("        checkCudaErrors(cudaFreeHost(plan[i].h_Data));\n", "        free(plan[i].h_Data);\n")],
         "each GPU's input from malloc", at="plan[i].d_Data, plan[i].h_Data,"),
    edit("simpleMultiGPU-malloc-sum", "pageable-copy", MG,
         [sub("        checkCudaErrors(cudaMallocHost((void **)&plan[i].h_Sum_from_device, ACCUM_N * sizeof(float)));\n",
              "        plan[i].h_Sum_from_device = (float *)malloc(ACCUM_N * sizeof(float));\n"),
          sub("        checkCudaErrors(cudaFreeHost(plan[i].h_Sum_from_device));\n",
              "        free(plan[i].h_Sum_from_device);\n")],
         "each GPU's result buffer from malloc",
         at="plan[i].h_Sum_from_device, plan[i].d_Sum,"),
    edit("simpleCallback-malloc", "pageable-copy", CB,
         [sub("    checkCudaErrors(cudaHostAlloc(&workload->h_data, N_elements_per_workload * sizeof(int), cudaHostAllocPortable));\n",
              "    workload->h_data = (int *)malloc(N_elements_per_workload * sizeof(int));\n"),
          sub("    checkCudaErrors(cudaFreeHost(workload->h_data));\n", "    free(workload->h_data);\n")],
         "the workload's buffer from malloc",
         at="workload->h_data,\n                                    N_elements_per_workload * sizeof(int),\n"
            "                                    cudaMemcpyHostToDevice"),
    edit("simpleMultiCopy-malloc-in", "pageable-copy", SMC,
         [sub("        checkCudaErrors(cudaHostAlloc(&h_data_in[i], memsize, cudaHostAllocDefault));\n",
              "        h_data_in[i] = (int *)malloc(memsize);\n"),
          sub("        cudaFreeHost(h_data_in[i]);\n", "        free(h_data_in[i]);\n")],
         "the input staging buffers from malloc",
         at="cudaMemcpyAsync(d_data_in[0], h_data_in[0]"),
    edit("simpleMultiCopy-malloc-out", "pageable-copy", SMC,
         [sub("        checkCudaErrors(cudaHostAlloc(&h_data_out[i], memsize, cudaHostAllocDefault));\n",
              "        h_data_out[i] = (int *)malloc(memsize);\n"),
          sub("        cudaFreeHost(h_data_out[i]);\n", "        free(h_data_out[i]);\n")],
         "the output buffers from malloc",
         at="cudaMemcpyAsync(h_data_out[0], d_data_out[0]"),
    edit("async-malloc", "pageable-copy", AS,
         [sub("  checkCuda( cudaMallocHost((void**)&a, bytes) );      // host pinned\n",
              "  a = (float*)malloc(bytes);\n"),
          sub("  cudaFreeHost(a);\n", "  free(a);\n")],
         "the pipeline's host buffer from malloc",
         at="    checkCuda( cudaMemcpyAsync(&d_a[offset], &a[offset], \n                               streamBytes, cudaMemcpyHostToDevice, \n"),
    edit("MonteCarlo-malloc-options", "pageable-copy", MCK,
         [sub("    checkCudaErrors(cudaMallocHost(&plan->h_OptionData, sizeof(__TOptionData) * (plan->optionCount)));\n",
              "    plan->h_OptionData = malloc(sizeof(__TOptionData) * (plan->optionCount));\n"),
          sub("    checkCudaErrors(cudaFreeHost(plan->h_OptionData));\n", "    free(plan->h_OptionData);\n")],
         "the option data (a plan field, copied in MonteCarloGPU) from "
         "malloc", at="plan->d_OptionData, h_OptionData,"),
    edit("simpleStreams-malloc", "pageable-copy", SS,
         [sub("        checkCudaErrors(cudaMallocHost((void **)pp_a, nbytes));\n",
              "        *pp_a = (int *)malloc(nbytes);\n"),
          sub("        cudaFreeHost(*pp_a);\n", "        free(*pp_a);\n")],
         "AllocateHostMemory's default branch allocating with malloc",
         at="cudaMemcpyAsync(hAligned_a + i * n / nstreams,"),

    # cuda-async-dealloc-mismatch: pinned memory released by the wrong
    # function.
    edit("asyncAPI-free", "dealloc-mismatch", AA,
         [sub("    checkCudaErrors(cudaFreeHost(a));\n", "    free(a);\n")],
         "memory from cudaMallocHost released with free"),
    edit("matrixMul-free-A", "dealloc-mismatch", MM,
         [sub("    checkCudaErrors(cudaFreeHost(h_A));\n", "    free(h_A);\n")],
         "matrix A (cudaMallocHost) released with free"),
    edit("matrixMul-delete-C", "dealloc-mismatch", MM,
         [sub("    checkCudaErrors(cudaFreeHost(h_C));\n", "    delete[] h_C;\n")],
         "the result matrix (cudaMallocHost) released with delete[]"),
    edit("simpleMultiGPU-free-sum", "dealloc-mismatch", MG,
         [sub("        checkCudaErrors(cudaFreeHost(plan[i].h_Sum_from_device));\n",
              "        free(plan[i].h_Sum_from_device);\n")],
         "a struct field from cudaMallocHost released with free"),
    edit("simpleMultiGPU-free-data", "dealloc-mismatch", MG,
         [sub("        checkCudaErrors(cudaFreeHost(plan[i].h_Data));\n", "        free(plan[i].h_Data);\n")],
         "each GPU's input (cudaMallocHost) released with free"),
    edit("simpleCallback-free", "dealloc-mismatch", CB,
         [sub("    checkCudaErrors(cudaFreeHost(workload->h_data));\n", "    free(workload->h_data);\n")],
         "the workload's buffer (cudaHostAlloc in launch) released with "
         "free in postprocess"),
    edit("simpleMultiCopy-free-in", "dealloc-mismatch", SMC,
         [sub("        cudaFreeHost(h_data_in[i]);\n", "        free(h_data_in[i]);\n")],
         "the staging buffers (cudaHostAlloc) released with free"),
    edit("simpleMultiCopy-delete-out", "dealloc-mismatch", SMC,
         [sub("        cudaFreeHost(h_data_out[i]);\n", "        delete[] h_data_out[i];\n")],
         "the output buffers (cudaHostAlloc) released with delete[]"),
    edit("async-free", "dealloc-mismatch", AS,
         [sub("  cudaFreeHost(a);\n", "  free(a);\n")],
         "the pipeline's pinned buffer released with free"),
    edit("simpleHyperQ-free", "dealloc-mismatch", HQ,
         [sub("    cudaFreeHost(a);\n", "    free(a);\n")],
         "the pinned result released with free"),
    edit("bandwidthtest-free", "dealloc-mismatch", BW,
         [sub("  cudaFreeHost(h_aPinned);\n", "  free(h_aPinned);\n")],
         "the pinned source released with free"),
    edit("simpleZeroCopy-free", "dealloc-mismatch", ZC,
         [sub("        checkCudaErrors(cudaFreeHost(a));\n", "        free(a);\n")],
         "mapped memory from cudaHostAlloc released with free"),
    edit("MonteCarlo-free", "dealloc-mismatch", MCK,
         [sub("    checkCudaErrors(cudaFreeHost(plan->h_CallValue));\n", "    free(plan->h_CallValue);\n")],
         "a plan field pinned in initMonteCarloGPU released with free in "
         "closeMonteCarloGPU"),
    edit("simpleStreams-free", "dealloc-mismatch", SS,
         [sub("        cudaFreeHost(*pp_a);\n", "        free(*pp_a);\n")],
         "the out-parameter buffer from cudaMallocHost released with free"),

    # cuda-async-host-register-leak: registered memory released without
    # cudaHostUnregister.
    edit("simpleZeroCopy-no-unregister-a", "host-register-leak", ZC,
         [delete("        checkCudaErrors(cudaHostUnregister(a));\n")],
         "the aligned pointer's registration not undone before its "
         "allocation is freed", at="free(a_UA);"),
    edit("simpleZeroCopy-no-unregister-b", "host-register-leak", ZC,
         [delete("        checkCudaErrors(cudaHostUnregister(b));\n")],
         "the same for b", at="free(b_UA);"),
    edit("simpleZeroCopy-no-unregister-c", "host-register-leak", ZC,
         [delete("        checkCudaErrors(cudaHostUnregister(c));\n")],
         "the same for c", at="free(c_UA);"),
    edit("simpleStreams-no-unregister", "host-register-leak", SS,
         [delete("        checkCudaErrors(cudaHostUnregister(*ppAligned_a));\n")],
         "the mapping unmapped without undoing its registration",
         at="munmap(*pp_a, nbytes);"),
    edit("matrixMul-register-A", "host-register-leak", MM,
         [sub("    checkCudaErrors(cudaMallocHost(&h_A, mem_size_A));\n",
              "    h_A = (float *)malloc(mem_size_A);\n"
              "    checkCudaErrors(cudaHostRegister(h_A, mem_size_A, cudaHostRegisterDefault));\n"),
          sub("    checkCudaErrors(cudaFreeHost(h_A));\n", "    free(h_A);\n")],
         "matrix A malloc'd and registered, then freed still registered"),
    edit("asyncAPI-register", "host-register-leak", AA,
         [sub("    checkCudaErrors(cudaMallocHost((void **)&a, nbytes));\n",
              "    a = (int *)malloc(nbytes);\n"
              "    checkCudaErrors(cudaHostRegister(a, nbytes, 0));\n"),
          sub("    checkCudaErrors(cudaFreeHost(a));\n", "    free(a);\n")],
         "the buffer malloc'd and registered, then freed still registered"),
    edit("async-register", "host-register-leak", AS,
         [sub("  checkCuda( cudaMallocHost((void**)&a, bytes) );      // host pinned\n",
              "  a = (float*)malloc(bytes);\n"
              "  checkCuda( cudaHostRegister(a, bytes, cudaHostRegisterDefault) );\n"),
          sub("  cudaFreeHost(a);\n", "  free(a);\n")],
         "the pipeline's buffer registered, then freed still registered"),
    edit("bandwidthtest-register", "host-register-leak", BW,
         [sub("  checkCuda( cudaMallocHost((void**)&h_aPinned, bytes) ); // host pinned\n",
              "  h_aPinned = (float*)malloc(bytes);\n"
              "  checkCuda( cudaHostRegister(h_aPinned, bytes, 0) );\n"),
          sub("  cudaFreeHost(h_aPinned);\n", "  free(h_aPinned);\n")],
         "the 'pinned' source registered, then freed still registered"),
    edit("simpleMultiGPU-register", "host-register-leak", MG,
         [sub("        checkCudaErrors(cudaMallocHost((void **)&plan[i].h_Data, plan[i].dataN * sizeof(float)));\n",
              "        plan[i].h_Data = (float *)malloc(plan[i].dataN * sizeof(float));\n"
              "        checkCudaErrors(cudaHostRegister(plan[i].h_Data, plan[i].dataN * sizeof(float), 0));\n"),
          sub("        checkCudaErrors(cudaFreeHost(plan[i].h_Data));\n", "        free(plan[i].h_Data);\n")],
         "each GPU's input registered, then freed still registered"),
    edit("simpleMultiCopy-register", "host-register-leak", SMC,
         [sub("        checkCudaErrors(cudaHostAlloc(&h_data_in[i], memsize, cudaHostAllocDefault));\n",
              "        h_data_in[i] = (int *)malloc(memsize);\n"
              "        checkCudaErrors(cudaHostRegister(h_data_in[i], memsize, cudaHostRegisterDefault));\n"),
          sub("        cudaFreeHost(h_data_in[i]);\n", "        free(h_data_in[i]);\n")],
         "the staging buffers registered, then freed still registered"),
    edit("simpleHyperQ-register", "host-register-leak", HQ,
         [sub("    checkCudaErrors(cudaMallocHost((void **)&a, sizeof(clock_t)));\n",
              "    a = (clock_t *)malloc(sizeof(clock_t));\n"
              "    checkCudaErrors(cudaHostRegister(a, sizeof(clock_t), 0));\n"),
          sub("    cudaFreeHost(a);\n", "    free(a);\n")],
         "the result registered, then freed still registered"),
]


EDITS += injected_edits.ALL


class Linter:
    """Lints files, each pristine file once however many edits it has."""

    def __init__(self, opts):
        self.opts = opts
        self.lock = threading.Lock()
        self.pristine = {}

    def lint(self, path, args, in_file=None):
        """The findings of one file, as (check, line, note lines), or None
        if the linter failed on it. `args`: its compiler arguments.
        `in_file`: only the findings (and notes) in that file, a header
        the unit `path` includes."""
        cmd = [self.opts.lint, "--format=json", "-j", "1", path, "--"] + args
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=self.opts.timeout)
        if proc.returncode not in (0, 1):
            return None
        report = json.loads(proc.stdout)
        where = lambda loc: in_file is None or \
            os.path.realpath(loc.get("file", "")) == os.path.realpath(in_file)
        return [(f["check"], f["location"]["line"],
                 [n["location"]["line"] for n in f.get("notes", [])
                  if "location" in n and where(n["location"])])
                for f in report.get("findings", []) if where(f["location"])]

    def lint_pristine(self, path, args, in_file=None):
        key = (path, in_file)
        with self.lock:
            future = self.pristine.get(key)
            if future is None:
                future = concurrent.futures.Future()
                self.pristine[key] = future
                mine = True
            else:
                mine = False
        if mine:
            try:
                future.set_result(self.lint(path, args, in_file))
            except Exception as err:  # the waiting edits see it too
                future.set_exception(err)
        return future.result()


def manifest_entries():
    with open(MANIFEST) as f:
        return {e["name"]: e for e in json.load(f)["repositories"]}


def resolve(opts, path):
    """The file an edit's path names, and the compiler arguments it needs
    (the manifest's include paths and macros); None when its corpus was not
    given."""
    corpus, rel = path.split(":", 1)
    if corpus == "cuda-samples":
        return (os.path.join(opts.cuda_samples, rel),
                ["-I", os.path.join(opts.cuda_samples, "Common")])
    if corpus == "code-samples" and opts.code_samples:
        return os.path.join(opts.code_samples, rel), []
    entry = manifest_entries().get(corpus)
    if not opts.corpus or entry is None:
        return None
    checkout = os.path.join(opts.corpus, corpus)
    args = []
    if entry.get("hip"):
        args += ["-x", "hip", "-std=c++17"]
    elif compiled_as_cuda(entry.get("cuda"), rel):
        args += ["-x", "cuda"]
    for inc in entry.get("includes", []):
        args += ["-I", os.path.join(checkout, inc)]
    args += ["-D" + d for d in entry.get("defines", [])]
    return os.path.join(checkout, rel), args


def statement_start(lines, line):
    """The first line of the statement that line number `line` (1-based)
    of `lines` is part of: a finding is reported where its call begins, and an edit may
    change only a statement's last argument."""
    while line > 1:
        prev = lines[line - 2].rstrip()
        if not prev or prev.endswith((";", "{", "}", ":")) or \
                prev.lstrip().startswith(("//", "#")):
            break
        line -= 1
    return line


def run_edit(opts, linter, e):
    resolved = resolve(opts, e["path"])
    if resolved is None:
        return dict(e, status="skipped", detail="its corpus was not given")
    path, args = resolved
    with open(path) as f:
        text = f.read()
    edited_text = text
    for find, replace in e["changes"]:
        if edited_text.count(find) != 1:
            return dict(e, status="stale",
                        detail="the text to edit occurs %d times" %
                        edited_text.count(find))
        edited_text = edited_text.replace(find, replace)
    # Map the pristine lines onto the edited file; the edited file's lines
    # outside the equal blocks are the edit.
    old, new = text.splitlines(), edited_text.splitlines()
    line_map, places, first_edited = {}, [], None
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
            None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                line_map[i1 + k + 1] = j1 + k + 1
        else:
            places.append((statement_start(new, j1 + 1), max(j2, j1 + 1)))
            first_edited = first_edited or j1 + 1
    if e.get("at"):
        if edited_text.count(e["at"]) != 1:
            return dict(e, status="stale", detail="'at' occurs %d times" %
                        edited_text.count(e["at"]))
        line = edited_text.count("\n", 0, edited_text.index(e["at"])) + 1
        places.append((line, line))
    if e.get("unit"):
        # A header's edit: linted as the unit that includes it compiles it.
        unit, unit_args = resolve(opts, e["unit"])
        before = linter.lint_pristine(unit, unit_args, in_file=path)
        after = lint_header_copy(linter, path, unit, e["id"], edited_text,
                                 unit_args)
    else:
        before = linter.lint_pristine(path, args)
        after = lint_copy(linter, path, e["id"], edited_text, args)
    if before is None or after is None:
        return dict(e, status="error", detail="the linter failed")
    moved = collections.Counter((c, line_map.get(l)) for c, l, _ in before)
    new_findings = []
    for c, l, notes in after:
        if moved[(c, l)] > 0:
            moved[(c, l)] -= 1
        else:
            new_findings.append((c, l, notes))
    near = lambda l: any(a - WINDOW <= l <= b + WINDOW for a, b in places)
    hits = [f for f in new_findings if f[0] == e["check"] and
            any(near(l) for l in [f[1]] + f[2])]
    status = "found" if hits else "missed"
    if not hits and not e.get("unit") and is_skipped_by_preprocessor(
            linter, path, e["id"], new, first_edited, args):
        return dict(e, status="dead", line=places[0][0],
                    detail="the edit is in code the preprocessor skips")
    return dict(e, status=status, line=places[0][0], new=new_findings,
                pristine=before)


def lint_copy(linter, path, tag, text, args):
    """Lints `text` as a copy of `path` beside it (so that its includes
    resolve), removed afterwards."""
    copy = os.path.join(os.path.dirname(path),
                        ".injected-" + tag + os.path.splitext(path)[1])
    with open(copy, "w") as f:
        f.write(text)
    try:
        return linter.lint(copy, args)
    finally:
        os.remove(copy)


def lint_header_copy(linter, header, unit, tag, text, args):
    """Lints `unit` with the header `header` replaced by `text`: the
    header's folder is copied with the edited header in it, and the unit is
    linted from the copy when it lies there, else with the copy first on
    its include path. Only the findings in the edited header count."""
    folder = os.path.dirname(header)
    with tempfile.TemporaryDirectory(prefix="injected-" + tag) as tmp:
        copy = os.path.join(tmp, os.path.basename(folder))
        shutil.copytree(folder, copy, symlinks=True,
                        ignore=shutil.ignore_patterns(".injected-*"))
        edited = os.path.join(copy, os.path.basename(header))
        with open(edited, "w") as f:
            f.write(text)
        if os.path.dirname(unit) == folder:
            return linter.lint(os.path.join(copy, os.path.basename(unit)),
                               args + ["-I", folder], in_file=edited)
        return linter.lint(unit, ["-I", copy] + args, in_file=edited)


def is_skipped_by_preprocessor(linter, path, tag, lines, line, args):
    """True if line `line` (1-based) of the edited file's `lines` is in a
    region the preprocessor skips: an #error before it does not fail the
    lint."""
    probe = lines[:line - 1] + ["#error the injected edit is compiled"] + \
        lines[line - 1:]
    return lint_copy(linter, path, tag + "-probe", "\n".join(probe) + "\n",
                     args) is not None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cuda_samples", metavar="CUDA_SAMPLES")
    parser.add_argument("--code-samples", metavar="DIR")
    parser.add_argument("--corpus", metavar="DIR",
                        help="checkouts of docs/real-code/corpus.json's "
                        "repositories, each named as the manifest names it")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--only", help="regular expression on the edit ids")
    parser.add_argument("--lint", default=os.path.join(ROOT, "build", "bin",
                                                       "cuda-async-lint"))
    parser.add_argument("--timeout", type=int, default=300)
    opts = parser.parse_args()
    ids = collections.Counter(e["id"] for e in EDITS)
    dup = [i for i, n in ids.items() if n > 1]
    if dup:
        sys.exit("injected-bugs.py: duplicate edit ids: " + ", ".join(dup))
    edits = [e for e in EDITS
             if not opts.only or re.search(opts.only, e["id"])]
    linter = Linter(opts)
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        results = list(pool.map(lambda e: run_edit(opts, linter, e), edits))
    with open(opts.output, "w") as f:
        json.dump(results, f, indent=1)
    by_check = collections.defaultdict(list)
    for r in results:
        if r["status"] not in ("skipped", "dead"):
            by_check[r["check"]].append(r)
    programs = {r["path"] for rs in by_check.values()
                for r in rs}
    repositories = {r["path"].split(":", 1)[0] for rs in by_check.values()
                    for r in rs}
    print("%d edits over %d files of %d repositories\n" % (
        sum(map(len, by_check.values())), len(programs), len(repositories)))
    print("| check | edits | files | repositories | found | recall |")
    print("| --- | --- | --- | --- | --- | --- |")
    for check in sorted(by_check):
        rs = by_check[check]
        found = sum(r["status"] == "found" for r in rs)
        print("| %s | %d | %d | %d | %d | %.2f |" % (
            check, len(rs), len({r["path"] for r in rs}),
            len({r["path"].split(":", 1)[0] for r in rs}), found,
            found / len(rs)))
    print()
    for r in results:
        if r["status"] != "found":
            print("- %s `%s` (%s:%s): %s%s" % (
                r["status"], r["id"], r["path"].split(":", 1)[1],
                r.get("line", "?"), r["why"],
                " -- " + r["detail"] if "detail" in r else ""))
    pristine = sorted({(r["path"], f[0], f[1]) for r in results
                       for f in r.get("pristine", []) or []})
    print("\npristine findings: %d" % len(pristine))
    for p, c, l in pristine:
        print("  %s:%d %s" % (p.split(":", 1)[1], l, c))
    bad = [r for r in results if r["status"] in ("stale", "error")]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
