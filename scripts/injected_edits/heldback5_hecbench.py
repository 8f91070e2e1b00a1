"""Held-back injected bugs (fifth set) in zjin-lcf/HeCBench (commit
f27000a5), a collection of several hundred small benchmarks, each one
program in its own src/NAME-cuda directory. Only a subset is linted: the
directories whose host code is asynchronous and that build with nothing
but the CUDA toolkit and MPI (tpacf, overlap, zerocopy, streamPriority,
crossEntropy, sparkler, logan, base64e, bsw, rsmt, cobahh, segsort,
mallocFree, merkle, mf-sgd, simpleMultiDevice, concurrentKernels). Their
host code is written in as many styles as there are authors: global
pinned arrays and a per-benchmark stream (tpacf's two-point correlation,
overlap's four streams cycling over global cudaHostAlloc'd frames,
base64e's chunked multi-stream pipeline over pinned globals), a struct
of pinned buffers and a stream per GPU (simpleMultiDevice), a pinned
Matrix class template with member to_device/from_device copies on the
caller's stream and a cuBLAS handle bound to it (sparkler, MPI), zero-copy
mapped memory through cudaHostAlloc or malloc + cudaHostRegister on an
aligned alias (zerocopy), an event fan-in onto the last stream
(concurrentKernels), priority streams joined by events (streamPriority),
and pageable malloc'd staging copied with cudaMemcpyAsync on the legacy
stream or on non-blocking streams under OpenMP (bsw, logan). Two
benchmarks (qem, bmf) are built with --default-stream per-thread and were
left out of the subset, so the manifest defines no per-thread default
stream. The repository is named 'hecbench' as the held-back manifest names
it; the checkout holds only the selected directories.

Real bugs of the seven kinds noticed while reading the pristine code:

- zerocopy-cuda/main.cu:83-111 and :170-191, pinned-alloc-in-loop (by
  design): the loop over vector lengths pins (cudaHostRegister or
  cudaHostAlloc) three buffers and releases them in every iteration; the
  benchmark times the pinning itself.
- base64e-cuda/main.cu:351-352, sync-in-loop (by design): every cycle of
  MultiQueueSequence waits for all its streams in an inner loop before the
  next cycle; the cycles are timed one by one.
- streamPriority-cuda/main.cu:115, bsw-cuda/driver.cu:156-234 and
  logan-cuda/src/logan_functions.cu:562-611, pageable-copy: cudaMemcpyAsync
  from or into std::vector / malloc'd memory (bsw on the legacy stream,
  logan on non-blocking streams), staged and synchronous.
- Not of the seven kinds: tpacf-cuda/compute.cu:75 and :139 malloc a
  sub-histogram buffer in every call of tileComputeSymm/tileCompute and
  never free it.
"""
from . import edit, sub, after, before, delete

R = "hecbench:src/"
TPACF = R + "tpacf-cuda/compute.cu"
OVL = R + "overlap-cuda/main.cu"
ZC = R + "zerocopy-cuda/main.cu"
SP = R + "streamPriority-cuda/main.cu"
CE = R + "crossEntropy-cuda/main.cu"
SPK = R + "sparkler-cuda/main.cu"
B64 = R + "base64e-cuda/main.cu"
BSW = R + "bsw-cuda/driver.cu"
RSMT = R + "rsmt-cuda/main.cu"
SMD = R + "simpleMultiDevice-cuda/main.cu"
CK = R + "concurrentKernels-cuda/main.cu"

TP_H1_PIN = ("  cudaMallocHost((void**)&h_idata1.x, dataSizePadded*sizeof(double));\n"
             "  cudaMallocHost((void**)&h_idata1.y, dataSizePadded*sizeof(double));\n"
             "  cudaMallocHost((void**)&h_idata1.z, dataSizePadded*sizeof(double));\n")
TP_H2_PIN = ("  cudaMallocHost((void**)&h_idata2.x, randomSizePadded*sizeof(double));\n"
             "  cudaMallocHost((void**)&h_idata2.y, randomSizePadded*sizeof(double));\n"
             "  cudaMallocHost((void**)&h_idata2.z, randomSizePadded*sizeof(double));\n")
TP_H2_PAD = ("  for(int i=randomSize; i<randomSizePadded; i++) {\n"
             "    h_idata2.x[i] = double(0.0);\n"
             "    h_idata2.y[i] = double(0.0);\n"
             "    h_idata2.z[i] = double(0.0);\n"
             "  }\n")
TP_H1_FREE = ("  cudaFreeHost(h_idata1.x);\n  cudaFreeHost(h_idata1.y);\n"
              "  cudaFreeHost(h_idata1.z);\n")
TP_H2_FREE = ("  cudaFreeHost(h_idata2.x);\n  cudaFreeHost(h_idata2.y);\n"
              "  cudaFreeHost(h_idata2.z);\n")

EDITS = [
    # ---- tpacf: two-point angular correlation, global pinned coordinate arrays
    edit("hb5hb-tpacf-coords-malloc", "pageable-copy", TPACF,
         [sub(TP_H1_PIN,
              "  h_idata1.x = (double*)malloc(dataSizePadded*sizeof(double));\n"
              "  h_idata1.y = (double*)malloc(dataSizePadded*sizeof(double));\n"
              "  h_idata1.z = (double*)malloc(dataSizePadded*sizeof(double));\n"),
          sub(TP_H2_PIN,
              "  h_idata2.x = (double*)malloc(randomSizePadded*sizeof(double));\n"
              "  h_idata2.y = (double*)malloc(randomSizePadded*sizeof(double));\n"
              "  h_idata2.z = (double*)malloc(randomSizePadded*sizeof(double));\n"),
          sub(TP_H1_FREE, "  free(h_idata1.x);\n  free(h_idata1.y);\n  free(h_idata1.z);\n"),
          sub(TP_H2_FREE, "  free(h_idata2.x);\n  free(h_idata2.y);\n  free(h_idata2.z);\n")],
         "the data and random coordinate arrays are allocated with malloc instead of "
         "cudaMallocHost: every tile upload (cudaMemcpyAsync on the benchmark's stream in "
         "tileComputeSymm and tileCompute) is staged and synchronous",
         at="      cudaMemcpyAsync(d_idata1.x, &h_idata1.x[i*GRID_SIZE]"),
    edit("hb5hb-tpacf-symm-kernel-legacy", "default-stream", TPACF,
         [sub("    ACFKernelSymm<<< grid, threads, 128*sizeof(double3), stream >>>(d_idata1, d_odata1);\n",
              "    ACFKernelSymm<<< grid, threads, 128*sizeof(double3) >>>(d_idata1, d_odata1);\n")],
         "the symmetric correlation kernel of each diagonal tile is launched without the "
         "stream argument, on the legacy default stream, while the tile uploads and the "
         "histogram kernels around it go to the benchmark's stream"),
    edit("hb5hb-tpacf-dr-kernel-legacy", "default-stream", TPACF,
         [sub("      cudaMemcpyAsync(d_idata2.z, &h_idata2.z[j*GRID_SIZE], GRID_SIZE*sizeof(double), cudaMemcpyHostToDevice, stream);\n"
              "      ACFKernel<<< grid, threads, 128*sizeof(double3), stream >>>(d_idata1, d_idata2, d_odata1);\n",
              "      cudaMemcpyAsync(d_idata2.z, &h_idata2.z[j*GRID_SIZE], GRID_SIZE*sizeof(double), cudaMemcpyHostToDevice, stream);\n"
              "      ACFKernel<<< grid, threads, 128*sizeof(double3) >>>(d_idata1, d_idata2, d_odata1);\n")],
         "tileCompute (the data-random pairs) launches its correlation kernel on the legacy "
         "default stream, inside the loop whose uploads and histograms use the stream "
         "parameter: every tile's next upload waits for it"),
    edit("hb5hb-tpacf-jk-cudafreehost", "dealloc-mismatch", TPACF,
         [sub("  free(h_idata1.jk);\n", "  cudaFreeHost(h_idata1.jk);\n")],
         "the tidy-up releases the malloc'd jackknife index array of the data set with "
         "cudaFreeHost, like the pinned coordinate arrays beside it"),
    edit("hb5hb-tpacf-random-set-pinned-per-file", "pinned-alloc-in-loop", TPACF,
         [delete(TP_H2_PIN),
          delete(TP_H2_PAD),
          before("    readdatafile(fname, h_idata2, randomSize);\n",
                 "    cudaMallocHost((void**)&h_idata2.x, randomSizePadded*sizeof(double));\n"
                 "    cudaMallocHost((void**)&h_idata2.y, randomSizePadded*sizeof(double));\n"
                 "    cudaMallocHost((void**)&h_idata2.z, randomSizePadded*sizeof(double));\n"
                 "    for(int j=randomSize; j<randomSizePadded; j++) {\n"
                 "      h_idata2.x[j] = h_idata2.y[j] = h_idata2.z[j] = double(0.0);\n"
                 "    }\n"),
          after("    t_computeRRS += TDIFF(t2, t3);\n",
                "    cudaFreeHost(h_idata2.x);\n    cudaFreeHost(h_idata2.y);\n"
                "    cudaFreeHost(h_idata2.z);\n"),
          delete(TP_H2_FREE)],
         "the random set's pinned coordinate arrays are allocated (and released) for "
         "every random file of the loop, around the DR and RR tile computations that "
         "upload them",
         at="cudaMallocHost((void**)&h_idata2.x, randomSizePadded*sizeof(double));"),
    edit("hb5hb-tpacf-subhisto-pinned-per-call", "pinned-alloc-in-loop", TPACF,
         [sub("  unsigned int* subHistoTemp = (unsigned int*)malloc(njk*nBins*sizeof(unsigned int));\n\n  int ndkernels",
              "  unsigned int* subHistoTemp;\n"
              "  cudaMallocHost((void**)&subHistoTemp, njk*nBins*sizeof(unsigned int));\n\n  int ndkernels"),
          sub("        histo[k] += subHistoTemp[k];\n      }\n    }\n  }\n}\n\n\n// Computes histograms and writes",
              "        histo[k] += subHistoTemp[k];\n      }\n    }\n  }\n  cudaFreeHost(subHistoTemp);\n}\n\n\n// Computes histograms and writes")],
         "tileCompute pins its sub-histogram buffer with cudaMallocHost and releases it on "
         "return; doComputeGPU calls it for every random file, so every file pays the "
         "pinning (the pristine code leaks a malloc'd buffer instead)",
         at="cudaMallocHost((void**)&subHistoTemp, njk*nBins*sizeof(unsigned int));"),

    # ---- overlap: four streams cycling over pinned frames
    edit("hb5hb-overlap-wait-each-frame", "sync-in-loop", OVL,
         [sub("                    cudaMemcpyDeviceToHost, stream[current_stream]);\n\n"
              "    current_stream = next_stream;\n",
              "                    cudaMemcpyDeviceToHost, stream[current_stream]);\n"
              "    cudaStreamSynchronize(stream[current_stream]);\n\n"
              "    current_stream = next_stream;\n")],
         "processWithStreams waits for each frame's download before it moves to the next "
         "stream: the kernel of frame i+1 and the upload of frame i+2 can no longer overlap "
         "with frame i's download",
         at="cudaStreamSynchronize(stream[current_stream]);"),
    edit("hb5hb-overlap-device-sync-after-kernel", "sync-in-loop", OVL,
         [sub("        d_data_out[current_stream], d_data_in[current_stream], N, inner_reps);\n",
              "        d_data_out[current_stream], d_data_in[current_stream], N, inner_reps);\n"
              "    cudaDeviceSynchronize();\n")],
         "a device-wide wait after each frame's kernel, before the next frame's upload is "
         "issued on the next stream: the upload no longer overlaps the kernel",
         at="    cudaDeviceSynchronize();\n\n    // Upload next frame"),
    edit("hb5hb-overlap-input-frames-malloc", "pageable-copy", OVL,
         [sub("    cudaHostAlloc(&h_data_in[i], memsize, cudaHostAllocDefault);\n",
              "    h_data_in[i] = (int *)malloc(memsize);\n"),
          sub("    cudaFreeHost(h_data_in[i]);\n", "    free(h_data_in[i]);\n")],
         "the input frames are malloc'd: the upload of the next frame (cudaMemcpyAsync on "
         "the next stream) is staged and synchronous and cannot overlap the current kernel",
         at="cudaMemcpyAsync(d_data_in[next_stream], h_data_in[next_stream], memsize,"),
    edit("hb5hb-overlap-kernel-legacy", "default-stream", OVL,
         [sub("    incKernel<<<grid, block, 0, stream[current_stream]>>>(\n",
              "    incKernel<<<grid, block>>>(\n")],
         "the frame kernel is launched on the legacy default stream: the uploads and "
         "downloads on the four created streams wait for it and it for them"),
    edit("hb5hb-overlap-output-frames-registered", "host-register-leak", OVL,
         [sub("    cudaHostAlloc(&h_data_out[i], memsize, cudaHostAllocDefault);\n",
              "    h_data_out[i] = (int *)malloc(memsize);\n"
              "    cudaHostRegister(h_data_out[i], memsize, cudaHostRegisterDefault);\n"),
          sub("    cudaFreeHost(h_data_out[i]);\n", "    free(h_data_out[i]);\n")],
         "the output frames are malloc'd and pinned with cudaHostRegister in main's "
         "allocation loop, and freed in the clean-up loop without cudaHostUnregister",
         at="    free(h_data_out[i]);"),

    # ---- zerocopy: mapped memory, cudaHostAlloc or malloc + cudaHostRegister
    edit("hb5hb-zerocopy-c-not-unregistered", "host-register-leak", ZC,
         [delete("      cudaHostUnregister(c);\n")],
         "the generic-pinning clean-up unregisters a and b but not c before freeing the "
         "unaligned allocations",
         at="      free(c_UA);"),
    edit("hb5hb-zerocopy-no-wait-before-check", "unsynchronized-access", ZC,
         [sub("      vectorAddGPU<<<grid, block>>>(d_a, d_b, d_c, nelem);\n    }\n    cudaDeviceSynchronize();\n",
              "      vectorAddGPU<<<grid, block>>>(d_a, d_b, d_c, nelem);\n    }\n")],
         "the wait after the timed kernel loop is dropped: the warm-up check reads c[n], "
         "which the kernels write through the mapped device pointer d_c, while they may "
         "still be running",
         at="diff = c[n] - ref;"),
    edit("hb5hb-zerocopy-hostalloc-freed", "dealloc-mismatch", ZC,
         [sub("      cudaFreeHost(c);\n", "      free(c);\n")],
         "the cudaHostAlloc path releases the mapped result vector c with free"),

    # ---- streamPriority
    edit("hb5hb-streampriority-prefetch-legacy", "default-stream", SP,
         [sub("    data_prefetch_kernel<<<blocks, threads, 0, s_prefetch>>>(d_prefetch_buf, N, b + 1);\n",
              "    data_prefetch_kernel<<<blocks, threads>>>(d_prefetch_buf, N, b + 1);\n")],
         "the prefetch kernel of the priority-stream loop goes to the legacy default stream "
         "instead of the low-priority s_prefetch: the next batch's training kernels on "
         "s_train wait for it, which the priority streams were meant to avoid"),

    # ---- crossEntropy
    edit("hb5hb-crossentropy-weight-registered", "host-register-leak", CE,
         [sub("  scalar_t* weight;\n  cudaMallocHost((void**)&weight, weight_size);\n",
              "  scalar_t* weight = (scalar_t*)malloc(weight_size);\n"
              "  cudaHostRegister(weight, weight_size, cudaHostRegisterDefault);\n"),
          sub("  cudaFreeHost(weight);\n", "  free(weight);\n")],
         "the class weights are malloc'd and registered with cudaHostRegister, then freed "
         "at the end of the test without cudaHostUnregister",
         at="  free(weight);"),

    # ---- sparkler: pinned Matrix class template, member copies on the caller's stream
    edit("hb5hb-sparkler-check-before-download-done", "unsynchronized-access", SPK,
         [sub("        c_buf.from_device(stream);\n        SAFE_CALL_CUDA(cudaStreamSynchronize(stream));\n",
              "        c_buf.from_device(stream);\n")],
         "the spot check of the GEMM result reads c_buf's pinned host copy right after "
         "from_device issued the cudaMemcpyAsync into it on 'stream', without waiting for it",
         at="const size_t value = c_buf.elt(r,c);\n            ASSERT(c_buf.elt(r,c)"),
    edit("hb5hb-sparkler-matrix-delete", "dealloc-mismatch", SPK,
         [sub("      SAFE_CALL_CUDA(cudaFreeHost(h_));\n", "      delete[] h_;\n")],
         "the Matrix destructor releases the cudaMallocHost'd host copy with delete[]"),
    edit("hb5hb-sparkler-matrix-malloc", "pageable-copy", SPK,
         [sub("      SAFE_CALL_CUDA(cudaMallocHost((void**)&h_, num_elt_up_ * sizeP));\n",
              "      h_ = (P*)malloc(num_elt_up_ * sizeP);\n"),
          sub("      SAFE_CALL_CUDA(cudaFreeHost(h_));\n", "      free(h_);\n")],
         "the Matrix host copy is malloc'd: to_device and from_device (cudaMemcpyAsync on the "
         "caller's stream) are staged and synchronous",
         at="SAFE_CALL_CUDA(cudaMemcpyAsync(d_, h_, num_elt_up_ * sizeP,"),
    edit("hb5hb-sparkler-matrix-registered", "host-register-leak", SPK,
         [sub("      SAFE_CALL_CUDA(cudaMallocHost((void**)&h_, num_elt_up_ * sizeP));\n",
              "      h_ = (P*)malloc(num_elt_up_ * sizeP);\n"
              "      SAFE_CALL_CUDA(cudaHostRegister(h_, num_elt_up_ * sizeP, cudaHostRegisterDefault));\n"),
          sub("      SAFE_CALL_CUDA(cudaFreeHost(h_));\n", "      free(h_);\n")],
         "the Matrix constructor mallocs its host copy and pins it with cudaHostRegister; the "
         "destructor frees it without cudaHostUnregister",
         at="      free(h_);"),

    # ---- base64e: chunked pipeline over nStreams streams, pinned globals
    edit("hb5hb-base64e-wait-each-chunk", "sync-in-loop", B64,
         [sub("      GPU_CHECK(cudaMemcpyAsync(output+output_offset, d_output+output_offset, streamBytes2, cudaMemcpyDeviceToHost, stream[i]));\n",
              "      GPU_CHECK(cudaMemcpyAsync(output+output_offset, d_output+output_offset, streamBytes2, cudaMemcpyDeviceToHost, stream[i]));\n"
              "      GPU_CHECK(cudaStreamSynchronize(stream[i]));\n")],
         "MultiQueueSequence waits for each chunk's read-back before issuing the next "
         "chunk on the next stream: the chunks run one after the other",
         at="      GPU_CHECK(cudaStreamSynchronize(stream[i]));\n    }"),
    edit("hb5hb-base64e-device-sync-after-kernel", "sync-in-loop", B64,
         [sub("      base64_enc<<<szGlobalWorkSize, szLocalWorkSize, 0, stream[i]>>> (d_input, d_output, padCount, numBlock, i*streamSize);\n",
              "      base64_enc<<<szGlobalWorkSize, szLocalWorkSize, 0, stream[i]>>> (d_input, d_output, padCount, numBlock, i*streamSize);\n"
              "      GPU_CHECK(cudaDeviceSynchronize());\n")],
         "a device-wide wait after each chunk's encoding kernel: the next chunk's upload on "
         "the next stream can no longer overlap it",
         at="GPU_CHECK(cudaDeviceSynchronize());"),
    edit("hb5hb-base64e-kernel-legacy", "default-stream", B64,
         [sub("      base64_enc<<<szGlobalWorkSize, szLocalWorkSize, 0, stream[i]>>> (d_input, d_output, padCount, numBlock, i*streamSize);\n",
              "      base64_enc<<<szGlobalWorkSize, szLocalWorkSize>>> (d_input, d_output, padCount, numBlock, i*streamSize);\n")],
         "the multi-queue sequence launches each chunk's kernel on the legacy default "
         "stream: the next chunk's upload on its own stream waits for it, which is the "
         "overlap the benchmark measures"),
    edit("hb5hb-base64e-output-registered", "host-register-leak", B64,
         [sub("  GPU_CHECK(cudaMallocHost((void**)&output, bytes2));\n",
              "  output = (uchar*)malloc(bytes2);\n"
              "  GPU_CHECK(cudaHostRegister(output, bytes2, cudaHostRegisterDefault));\n"),
          sub("  GPU_CHECK(cudaFreeHost(output));\n", "  free(output);\n")],
         "the result buffer (a global of the file) is malloc'd and registered, and freed at "
         "clean-up without cudaHostUnregister",
         at="  free(output);"),
    edit("hb5hb-base64e-input-malloc", "pageable-copy", B64,
         [sub("  GPU_CHECK(cudaMallocHost((void**)&input, bytes));\n",
              "  input = (uchar*)malloc(bytes);\n"),
          sub("  GPU_CHECK(cudaFreeHost(input));\n", "  free(input);\n")],
         "the source buffer (a global of the file) is malloc'd: each chunk's upload in "
         "MultiQueueSequence is staged and synchronous",
         at="GPU_CHECK(cudaMemcpyAsync(d_input+input_offset, input+input_offset, streamBytes, cudaMemcpyHostToDevice, stream[i]));"),
    edit("hb5hb-base64e-output-pinned-per-run", "pinned-alloc-in-loop", B64,
         [delete("  GPU_CHECK(cudaMallocHost((void**)&output, bytes2));\n"),
          after("  for( int iRun =0; iRun < RETRIES_ON_FAILURE; ++iRun ) {\n",
                "    GPU_CHECK(cudaMallocHost((void**)&output, bytes2));\n"),
          sub("    printf(\"  Measured and (Acceptable) Avg Overlap\\t= %.1f %% (%.1f %%)  -> Retry %d more time(s)...\\n\\n\",\n"
              "      dAvgOverlap, fMinPassCriteria[1], RETRIES_ON_FAILURE - iRun);\n",
              "    printf(\"  Measured and (Acceptable) Avg Overlap\\t= %.1f %% (%.1f %%)  -> Retry %d more time(s)...\\n\\n\",\n"
              "      dAvgOverlap, fMinPassCriteria[1], RETRIES_ON_FAILURE - iRun);\n"
              "    GPU_CHECK(cudaFreeHost(output));\n")],
         "the pinned result buffer is allocated at the top of every timing run and released "
         "at its end, around the multi- and single-queue sequences that download into it",
         at="    GPU_CHECK(cudaMallocHost((void**)&output, bytes2));"),

    # ---- bsw: batches of alignments staged in malloc'd buffers
    edit("hb5hb-bsw-register-per-batch", "pinned-alloc-in-loop", BSW,
         [sub("    cudaMemcpyAsync(d_offset_ref, h_offsetA, sizeof(unsigned) * sequences_per_stream,\n",
              "    cudaHostRegister(h_strA, maxContigSize * totalAlignments, cudaHostRegisterDefault);\n"
              "    cudaMemcpyAsync(d_offset_ref, h_offsetA, sizeof(unsigned) * sequences_per_stream,\n"),
          sub("    top_scores += stringsPerIt;\n\n  }  // iterations end here\n",
              "    top_scores += stringsPerIt;\n    cudaHostUnregister(h_strA);\n\n  }  // iterations end here\n")],
         "the packed reference strings are pinned with cudaHostRegister for each batch of "
         "alignments and unregistered at the end of the batch, instead of once",
         at="cudaHostRegister(h_strA, maxContigSize * totalAlignments, cudaHostRegisterDefault);"),

    # ---- rsmt
    edit("hb5hb-rsmt-xin-registered", "host-register-leak", RSMT,
         [sub("  ctype* xin = NULL;\n  GPU_CHECK(cudaHostAlloc(&xin, idxin[numnets] * sizeof(ctype), cudaHostAllocDefault));\n",
              "  ctype* xin = (ctype*)malloc(idxin[numnets] * sizeof(ctype));\n"
              "  GPU_CHECK(cudaHostRegister(xin, idxin[numnets] * sizeof(ctype), cudaHostRegisterDefault));\n"),
          sub("  GPU_CHECK(cudaFreeHost(xin));\n", "  free(xin);\n")],
         "the x pin coordinates are malloc'd and registered, and freed at clean-up without "
         "cudaHostUnregister",
         at="  free(xin);"),

    # ---- simpleMultiDevice: a stream and pinned buffers per GPU in a plan struct
    edit("hb5hb-smd-wait-per-gpu", "sync-in-loop", SMD,
         [sub("      cudaMemcpyAsync(plan[i].h_Sum_from_device, plan[i].d_Sum, ACCUM_N *sizeof(float),\n"
              "          cudaMemcpyDeviceToHost, plan[i].stream);\n",
              "      cudaMemcpyAsync(plan[i].h_Sum_from_device, plan[i].d_Sum, ACCUM_N *sizeof(float),\n"
              "          cudaMemcpyDeviceToHost, plan[i].stream);\n"
              "      cudaStreamSynchronize(plan[i].stream);\n")],
         "each GPU's partial sums are waited for inside the loop that issues the GPUs' work: "
         "GPU i+1 starts only after GPU i finished",
         at="      cudaStreamSynchronize(plan[i].stream);\n    }\n\n    //Process"),
    edit("hb5hb-smd-no-final-wait", "unsynchronized-access", SMD,
         [sub("      //Wait for all operations to finish\n      cudaStreamSynchronize(plan[i].stream);\n",
              "      //Wait for all operations to finish\n")],
         "the per-GPU wait is dropped: the reduction after the timing loop reads "
         "plan[i].h_Sum_from_device while its cudaMemcpyAsync may still be in flight",
         at="sum += plan[i].h_Sum_from_device[j];"),
    edit("hb5hb-smd-sum-free", "dealloc-mismatch", SMD,
         [sub("    cudaFreeHost(plan[i].h_Sum_from_device);\n", "    free(plan[i].h_Sum_from_device);\n")],
         "the per-GPU pinned partial-sum buffer is released with free"),

    edit("hb5hb-smd-input-malloc", "pageable-copy", SMD,
         [sub("    cudaMallocHost((void **)&plan[i].h_Data, plan[i].dataN * sizeof(float));\n",
              "    plan[i].h_Data = (float *)malloc(plan[i].dataN * sizeof(float));\n"),
          sub("    cudaFreeHost(plan[i].h_Data);\n", "    free(plan[i].h_Data);\n")],
         "each GPU's input vector is malloc'd: its upload (cudaMemcpyAsync on the GPU's "
         "stream) is staged and synchronous, and the GPUs' uploads no longer overlap",
         at="cudaMemcpyAsync(plan[i].d_Data, plan[i].h_Data, plan[i].dataN * sizeof(float),"),
    edit("hb5hb-smd-kernel-legacy", "default-stream", SMD,
         [sub("      reduceKernel<<<BLOCK_N, THREAD_N, 0, plan[i].stream>>>(\n",
              "      reduceKernel<<<BLOCK_N, THREAD_N>>>(\n")],
         "the reduction kernel is launched on the current GPU's legacy default stream "
         "instead of the plan's stream, between the upload and the download issued on it"),

    # ---- concurrentKernels
    edit("hb5hb-concurrentkernels-wait-each", "sync-in-loop", CK,
         [sub("    cudaEventRecord(kernelEvent[i], streams[i]);\n",
              "    cudaEventRecord(kernelEvent[i], streams[i]);\n"
              "    cudaStreamSynchronize(streams[i]);\n")],
         "the loop that queues one clock_block kernel per stream waits for each kernel: the "
         "kernels that should run concurrently run one after the other",
         at="cudaStreamSynchronize(streams[i]);"),
    edit("hb5hb-concurrentkernels-no-wait", "unsynchronized-access", CK,
         [sub("  // wait until the GPU is done\n  cudaDeviceSynchronize();\n",
              "  // wait until the GPU is done\n")],
         "the wait for the GPU is dropped: the result check reads the pinned total a[0] "
         "while the cudaMemcpyAsync into it on the last stream may still be in flight",
         at="a[0] == nkernels * sum"),
    edit("hb5hb-concurrentkernels-legacy", "default-stream", CK,
         [sub("    clock_block<<<1, 1, 0, streams[i]>>>(&d_a[i], time_clocks);\n",
              "    clock_block<<<1, 1>>>(&d_a[i], time_clocks);\n")],
         "the clock_block kernels meant to run concurrently on their own streams are "
         "launched on the legacy default stream: they run one after the other, and the "
         "sum and copy on the last stream wait for all of them anyway"),
]
