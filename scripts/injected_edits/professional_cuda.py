"""Injected bugs in deeperlearning/professional-cuda-c-programming (commit
ee58310b): the book's examples of streams, pinned memory, Hyper-Q, callbacks
and multiple GPUs (docs/real-code.md). The repository is named
'professional-cuda' as the manifest names it."""
from . import edit, sub, after, before, delete

R = "professional-cuda:"
AA = R + "examples/chapter06/asyncAPI.cu"
MAB = R + "examples/chapter06/simpleMultiAddBreadth.cu"
MAD = R + "examples/chapter06/simpleMultiAddDepth.cu"
HQB = R + "examples/chapter06/simpleHyperqBreadth.cu"
HQD = R + "examples/chapter06/simpleHyperqDepth.cu"
CB = R + "examples/chapter06/simpleCallback.cu"
PMT = R + "examples/chapter04/pinMemTransfer.cu"
ZC = R + "examples/chapter04/sumArrayZerocpy.cu"
MG = R + "examples/chapter09/simpleMultiGPU.cu"
MGE = R + "solutions/chapter09/simpleMultiGPUEvents.cu"
CO = R + "examples/chapter10/crypt.overlap.cu"
CF = R + "examples/chapter10/crypt.flexible.cu"

MAD_D2H = ("        CHECK(cudaMemcpyAsync(&gpuRef[ioffset], &d_C[ioffset], iBytes,\n"
           "                              cudaMemcpyDeviceToHost, stream[i]));\n")
MAD_KERNEL = "        sumArrays<<<grid, block, 0, stream[i]>>>(&d_A[ioffset], &d_B[ioffset],\n"
MG_D2H = ("        CHECK(cudaMemcpyAsync(gpuRef[i], d_C[i], iBytes, cudaMemcpyDeviceToHost,\n"
          "                              stream[i]));\n")
CO_RECORD = "        CHECK(cudaEventRecord(finishes[b], streams[b]));\n"
CO_H2D = ("        CHECK(cudaMemcpyAsync(dPlain + blockOffset, plain + blockOffset,\n"
          "                        localChunks * CHUNK_SIZE * sizeof(signed char),\n"
          "                        cudaMemcpyHostToDevice, streams[b]));\n")
CF_DRIVER_CALL = ("            encrypt_decrypt_driver(text + start, crypt + start, key, len,\n"
                  "                    nThreadsPerBlock, ctxs + d);\n")

EDITS = [
    # pageable-copy: a pinned buffer of an async copy made pageable.
    edit("pc-async-malloc", "pageable-copy", AA,
         [sub("    CHECK(cudaMallocHost((void **)&h_a, nbytes));\n",
              "    h_a = (float *)malloc(nbytes);\n"),
          sub("    CHECK(cudaFreeHost(h_a));\n", "    free(h_a);\n")],
         "asyncAPI's one buffer, copied both ways with cudaMemcpyAsync, malloc'd"),
    edit("pc-depth-malloc-input", "pageable-copy", MAD,
         [sub("    CHECK(cudaHostAlloc((void**)&h_A, nBytes, cudaHostAllocDefault));\n",
              "    h_A = (float *)malloc(nBytes);\n"),
          sub("    CHECK(cudaFreeHost(h_A));\n", "    free(h_A);\n")],
         "the depth-first pipeline's input A malloc'd"),
    edit("pc-breadth-new-output", "pageable-copy", MAB,
         [sub("    CHECK(cudaHostAlloc((void**)&gpuRef, nBytes, cudaHostAllocDefault));\n",
              "    gpuRef = new float[nElem];\n"),
          sub("    CHECK(cudaFreeHost(gpuRef));\n", "    delete[] gpuRef;\n")],
         "the breadth-first pipeline's D2H destination allocated with new[]"),
    edit("pc-multigpu-malloc-output", "pageable-copy", MG,
         [sub("        CHECK(cudaMallocHost((void **) &gpuRef[i],  iBytes));\n",
              "        gpuRef[i] = (float *)malloc(iBytes);\n"),
          sub("        CHECK(cudaFreeHost(gpuRef[i]));\n", "        free(gpuRef[i]);\n")],
         "each GPU's D2H destination malloc'd (an element of a malloc'd array of pointers)"),
    edit("pc-crypt-malloc-text", "pageable-copy", CO,
         [sub("    CHECK(cudaMallocHost(text, textLen * sizeof(signed char)));\n",
              "    *text = (signed char *)malloc(textLen * sizeof(signed char));\n"),
          sub("    CHECK(cudaFreeHost(text));\n", "    free(text);\n")],
         "the plain text read by readInputData (an out-parameter allocator) malloc'd; "
         "the static driver copies it per block"),

    # dealloc-mismatch: pinned memory released with free/delete.
    edit("pc-breadth-free-pinned", "dealloc-mismatch", MAB,
         [sub("    CHECK(cudaFreeHost(gpuRef));\n", "    free(gpuRef);\n")],
         "the cudaHostAlloc'd result released with free"),
    edit("pc-crypt-free-key", "dealloc-mismatch", CO,
         [sub("    CHECK(cudaFreeHost(Z));\n", "    free(Z);\n")],
         "the encryption key from generateEncryptKey (cudaMallocHost) released with free"),
    edit("pc-crypt-cleanup-free", "dealloc-mismatch", CO,
         [sub("    CHECK(cudaFreeHost(crypt));\n", "    free(crypt);\n")],
         "cleanup() (external linkage) frees the pinned output with free"),
    edit("pc-multigpu-free-pinned", "dealloc-mismatch", MG,
         [sub("        CHECK(cudaFreeHost(h_A[i]));\n", "        free(h_A[i]);\n")],
         "each GPU's pinned input released with free"),
    edit("pc-zerocopy-free-mapped", "dealloc-mismatch", ZC,
         [sub("    CHECK(cudaFreeHost(h_A));\n", "    free(h_A);\n")],
         "the mapped zero-copy buffer (cudaHostAlloc, after an earlier malloc of the same variable) released with free"),

    # host-register-leak: malloc + cudaHostRegister, freed still registered.
    edit("pc-async-register", "host-register-leak", AA,
         [sub("    CHECK(cudaMallocHost((void **)&h_a, nbytes));\n",
              "    h_a = (float *)malloc(nbytes);\n"
              "    CHECK(cudaHostRegister(h_a, nbytes, cudaHostRegisterDefault));\n"),
          sub("    CHECK(cudaFreeHost(h_a));\n", "    free(h_a);\n")],
         "asyncAPI's buffer registered, then freed still registered"),
    edit("pc-depth-register", "host-register-leak", MAD,
         [sub("    CHECK(cudaHostAlloc((void**)&h_B, nBytes, cudaHostAllocDefault));\n",
              "    h_B = (float *)malloc(nBytes);\n"
              "    CHECK(cudaHostRegister(h_B, nBytes, cudaHostRegisterDefault));\n"),
          sub("    CHECK(cudaFreeHost(h_B));\n", "    free(h_B);\n")],
         "the depth-first pipeline's input B registered, then freed still registered"),
    edit("pc-pinmem-register", "host-register-leak", PMT,
         [sub("    CHECK(cudaMallocHost ((float **)&h_a, nbytes));\n",
              "    h_a = (float *)malloc(nbytes);\n"
              "    CHECK(cudaHostRegister(h_a, nbytes, cudaHostRegisterDefault));\n"),
          sub("    CHECK(cudaFreeHost(h_a));\n", "    free(h_a);\n")],
         "the pinned-transfer benchmark's buffer registered, then freed still registered"),
    edit("pc-multigpu-register", "host-register-leak", MG,
         [sub("        CHECK(cudaMallocHost((void **) &h_B[i],     iBytes));\n",
              "        h_B[i] = (float *)malloc(iBytes);\n"
              "        CHECK(cudaHostRegister(h_B[i], iBytes, cudaHostRegisterDefault));\n"),
          sub("        CHECK(cudaFreeHost(h_B[i]));\n", "        free(h_B[i]);\n")],
         "each GPU's input B registered in the set-up loop, freed in the clean-up loop still registered"),

    # unsynchronized-access: a wait deleted, or the host touching a buffer in flight.
    edit("pc-async-no-poll", "unsynchronized-access", AA,
         [delete("    while (cudaEventQuery(stop) == cudaErrorNotReady) {\n"
                 "        counter++;\n"
                 "    }\n")],
         "the event polling loop deleted: checkResult reads the D2H destination in flight",
         at="    bool bFinalResults = (bool) checkResult(h_a, num, value);"),
    edit("pc-breadth-no-event-sync", "unsynchronized-access", MAB,
         [sub("    CHECK(cudaEventRecord(stop, 0));\n"
              "    CHECK(cudaEventSynchronize(stop));\n"
              "    float execution_time;\n",
              "    CHECK(cudaEventRecord(stop, 0));\n"
              "    float execution_time;\n")],
         "the wait for the streams deleted: checkResult reads gpuRef's slices in flight",
         at="    checkResult(hostRef, gpuRef, nElem);"),
    edit("pc-depth-refill-input", "unsynchronized-access", MAD,
         [sub("    CHECK(cudaEventRecord(stop, 0));\n"
              "    CHECK(cudaEventSynchronize(stop));\n"
              "    float execution_time;\n",
              "    initialData(h_A, nElem);\n"
              "    CHECK(cudaEventRecord(stop, 0));\n"
              "    CHECK(cudaEventSynchronize(stop));\n"
              "    float execution_time;\n")],
         "the next input generated into h_A while its H2D copies may be in flight"),
    edit("pc-multigpu-no-stream-sync", "unsynchronized-access", MG,
         [delete("        CHECK(cudaStreamSynchronize(stream[i]));\n")],
         "the per-GPU stream waits deleted: checkResult reads each GPU's D2H destination in flight",
         at="        checkResult(hostRef[i], gpuRef[i], iSize);"),
    edit("pc-events-no-stream-sync", "unsynchronized-access", MGE,
         [delete("        CHECK(cudaStreamSynchronize(stream[i]));\n")],
         "the per-GPU stream waits deleted (events version): the results are read in flight",
         at="        checkResult(hostRef[i], gpuRef[i], iSize);"),

    # sync-in-loop: a wait for this iteration's work in a multi-stream loop.
    edit("pc-depth-stream-sync", "sync-in-loop", MAD,
         [sub(MAD_D2H, MAD_D2H + "        CHECK(cudaStreamSynchronize(stream[i]));\n")],
         "each stream waited for right after its D2H copy in the depth-first loop"),
    edit("pc-multigpu-device-sync", "sync-in-loop", MG,
         [sub(MG_D2H, MG_D2H + "        CHECK(cudaDeviceSynchronize());\n")],
         "each GPU waited for inside the issuing loop"),
    edit("pc-crypt-event-sync", "sync-in-loop", CO,
         [sub(CO_RECORD, CO_RECORD + "        CHECK(cudaEventSynchronize(finishes[b]));\n")],
         "each block's finish event waited for inside the block loop"),
    edit("pc-hyperq-stream-sync", "sync-in-loop", HQD,
         [sub("        kernel_4<<<grid, block, 0, streams[i]>>>();\n    }\n",
              "        kernel_4<<<grid, block, 0, streams[i]>>>();\n"
              "        CHECK(cudaStreamSynchronize(streams[i]));\n    }\n")],
         "each stream's four kernels waited for inside the dispatch loop"),
    edit("pc-flexible-device-sync", "sync-in-loop", CF,
         [sub(CF_DRIVER_CALL, CF_DRIVER_CALL + "            CHECK(cudaDeviceSynchronize());\n")],
         "each device waited for right after its driver call, inside the device loop"),

    # default-stream: work of the multi-stream loops moved to the legacy stream.
    edit("pc-depth-kernel-legacy", "default-stream", MAD,
         [sub(MAD_KERNEL, "        sumArrays<<<grid, block>>>(&d_A[ioffset], &d_B[ioffset],\n")],
         "the depth-first loop's kernel launched on the legacy stream"),
    edit("pc-breadth-h2d-legacy", "default-stream", MAB,
         [sub("        CHECK(cudaMemcpyAsync(&d_B[ioffset], &h_B[ioffset], iBytes,\n"
              "                              cudaMemcpyHostToDevice, stream[i]));\n",
              "        CHECK(cudaMemcpyAsync(&d_B[ioffset], &h_B[ioffset], iBytes,\n"
              "                              cudaMemcpyHostToDevice));\n")],
         "the breadth-first loop's second H2D copy issued without its stream"),
    edit("pc-crypt-kernel-legacy", "default-stream", CO,
         [sub("        encrypt_decrypt<<<nThreadBlocks, nThreadsPerBlock, 0, streams[b]>>>(\n",
              "        encrypt_decrypt<<<nThreadBlocks, nThreadsPerBlock>>>(\n")],
         "the block loop's kernel launched on the legacy stream"),
    edit("pc-hyperq-breadth-legacy", "default-stream", HQB,
         [sub("        kernel_1<<<grid, block, 0, streams[i]>>>();\n",
              "        kernel_1<<<grid, block>>>();\n")],
         "the first breadth-first kernel loop launched on the legacy stream"),
    edit("pc-callback-legacy", "default-stream", CB,
         [sub("        kernel_3<<<grid, block, 0, streams[i]>>>();\n",
              "        kernel_3<<<grid, block, 0, 0>>>();\n")],
         "the third kernel of each stream's chain launched on stream 0"),

    # pinned-alloc-in-loop: pinning inside the issuing loops.
    edit("pc-crypt-register-block", "pinned-alloc-in-loop", CO,
         [sub("    CHECK(cudaMallocHost(text, textLen * sizeof(signed char)));\n",
              "    *text = (signed char *)malloc(textLen * sizeof(signed char));\n"),
          before(CO_H2D,
                 "        CHECK(cudaHostRegister(plain + blockOffset,\n"
                 "                        localChunks * CHUNK_SIZE, cudaHostRegisterDefault));\n")],
         "the plain text malloc'd, and each block of it registered inside the block loop before its copy"),
    edit("pc-depth-staging-per-stream", "pinned-alloc-in-loop", MAD,
         [sub("        int ioffset = i * iElem;\n"
              "        CHECK(cudaMemcpyAsync(&d_A[ioffset], &h_A[ioffset], iBytes,\n",
              "        int ioffset = i * iElem;\n"
              "        float *h_stage;\n"
              "        CHECK(cudaMallocHost((void **)&h_stage, iBytes));\n"
              "        memcpy(h_stage, &h_A[ioffset], iBytes);\n"
              "        CHECK(cudaMemcpyAsync(&d_A[ioffset], h_stage, iBytes,\n"),
          sub(MAD_D2H, MAD_D2H + "        CHECK(cudaFreeHost(h_stage));\n")],
         "a pinned staging buffer for A allocated per stream inside the issuing loop and freed at its end"),
    edit("pc-multigpu-pin-in-issue-loop", "pinned-alloc-in-loop", MG,
         [sub("        CHECK(cudaMallocHost((void **) &h_A[i],     iBytes));\n",
              "        h_A[i] = (float *)malloc(iBytes);\n"),
          sub("        CHECK(cudaSetDevice(i));\n\n"
              "        CHECK(cudaMemcpyAsync(d_A[i], h_A[i], iBytes, cudaMemcpyHostToDevice,\n",
              "        CHECK(cudaSetDevice(i));\n"
              "        CHECK(cudaHostRegister(h_A[i], iBytes, cudaHostRegisterDefault));\n"
              "        CHECK(cudaMemcpyAsync(d_A[i], h_A[i], iBytes, cudaMemcpyHostToDevice,\n")],
         "each GPU's input malloc'd in the set-up loop and registered inside the issuing loop"),
    edit("pc-flexible-register-per-device", "pinned-alloc-in-loop", CF,
         [sub("    CHECK(cudaMallocHost(text, textLen * sizeof(signed char)));\n",
              "    *text = (signed char *)malloc(textLen * sizeof(signed char));\n"),
          before(CF_DRIVER_CALL,
                 "            CHECK(cudaHostRegister(text + start, len, cudaHostRegisterDefault));\n")],
         "the text malloc'd, and each device's slice registered in the device loop that calls the "
         "copying driver (a static function of the unit)"),
]
