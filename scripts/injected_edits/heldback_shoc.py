"""Held-back injected bugs in vetter/shoc (commit 0aea03beb), CUDA
benchmarks (src/cuda/): Triad's two-stream pipeline over one pinned buffer,
S3D's kernels on two streams with pinned inputs and outputs, the bus-speed
and reduction benchmarks' pinned buffers with blocking copies. The
repository is named 'shoc' as the held-back manifest names it."""
from . import edit, sub, after, before, delete

R = "shoc:"
TRIAD = R + "src/cuda/level1/triad/Triad.cu"
S3D = R + "src/cuda/level2/s3d/S3D.cu"
RED = R + "src/cuda/level1/reduction/Reduction.cu"
RB = R + "src/cuda/level0/BusSpeedReadback.cu"
DL = R + "src/cuda/level0/BusSpeedDownload.cu"
SORT = R + "src/cuda/level1/sort/Sort.cu"

TRIAD_ALLOC = "    cudaMallocHost((void**) &h_mem, sizeof(float) * numMaxFloats);\n"
TRIAD_FREE = "    cudaFreeHost(h_mem);\n"
TRIAD_D2H_END = ("                    cudaMemcpyAsync(h_mem + crtIdx, d_memC1, elemsInBlock\n"
                 "                        * sizeof(float), cudaMemcpyDeviceToHost, streams[1]);\n"
                 "                }\n"
                 "                CHECK_CUDA_ERROR();\n")
S3D_GR_BASE = ("        gr_base        <<<blks2,thrds2,0,s2>>>(gpu_p, gpu_t, gpu_y,\n"
               "                                               gpu_c, tconv, pconv);\n")
S3D_D2H = ("        CUDA_SAFE_CALL(cudaMemcpyAsync(host_wdot, gpu_wdot,\n"
           "                WDOT_SIZE * n * sizeof(real), cudaMemcpyDeviceToHost, s1));\n"
           "        CUDA_SAFE_CALL(cudaEventRecord(stop, 0));\n"
           "        CUDA_SAFE_CALL(cudaEventSynchronize(stop));\n")
RED_D2H = ("        CUDA_SAFE_CALL(cudaMemcpy(h_odata, d_odata,\n"
           "                num_blocks*sizeof(T), cudaMemcpyDeviceToHost));\n"
           "        cudaEventRecord(stop, 0);\n"
           "        cudaEventSynchronize(stop);\n")

EDITS = [
    # pageable-copy
    edit("shoc-triad-malloc", "pageable-copy", TRIAD,
         [sub(TRIAD_ALLOC, "    h_mem = (float *) malloc(sizeof(float) * numMaxFloats);\n"),
          sub(TRIAD_FREE, "    free(h_mem);\n")],
         "Triad's one host buffer, streamed both ways with cudaMemcpyAsync on two streams, malloc'd"),
    edit("shoc-s3d-malloc-y", "pageable-copy", S3D,
         [sub("    CUDA_SAFE_CALL(cudaMallocHost((void**)&host_y, Y_SIZE*n*sizeof(real)));\n",
              "    host_y = (real *) malloc(Y_SIZE*n*sizeof(real));\n"),
          sub("    CUDA_SAFE_CALL(cudaFreeHost(host_y));\n", "    free(host_y);\n")],
         "S3D's mass fractions, uploaded with cudaMemcpyAsync on s2, malloc'd"),
    edit("shoc-s3d-new-wdot", "pageable-copy", S3D,
         [sub("    CUDA_SAFE_CALL(cudaMallocHost((void**)&host_wdot,WDOT_SIZE*n*sizeof(real)));\n",
              "    host_wdot = new real[WDOT_SIZE*n];\n"),
          sub("    CUDA_SAFE_CALL(cudaFreeHost(host_wdot));\n", "    delete[] host_wdot;\n")],
         "S3D's result buffer, the destination of each pass's async D2H copy, allocated with new[]"),

    # dealloc-mismatch
    edit("shoc-triad-free-pinned", "dealloc-mismatch", TRIAD,
         [sub(TRIAD_FREE, "    free(h_mem);\n")],
         "Triad's cudaMallocHost'd buffer released with free"),
    edit("shoc-s3d-free-molwt", "dealloc-mismatch", S3D,
         [sub("    CUDA_SAFE_CALL(cudaFreeHost(host_molwt));\n", "    free(host_molwt);\n")],
         "S3D's pinned molecular weights released with free"),
    edit("shoc-readback-delete-pinned", "dealloc-mismatch", RB,
         [sub("        cudaFreeHost((void*)hostMem2);\n", "        delete[] hostMem2;\n")],
         "the readback benchmark's pinned branch releases its second buffer with delete[], "
         "as the pageable branch does"),
    edit("shoc-download-cudafreehost-pageable", "dealloc-mismatch", DL,
         [sub("        delete[] hostMem;\n", "        cudaFreeHost((void*)hostMem);\n")],
         "the download benchmark's pageable branch (new[]) releases with cudaFreeHost, "
         "as the pinned branch does"),
    edit("shoc-sort-free-vals", "dealloc-mismatch", SORT,
         [sub("    CUDA_SAFE_CALL(cudaFreeHost(hVals));\n", "    free(hVals);\n")],
         "the sort benchmark's pinned values released with free"),

    # host-register-leak
    edit("shoc-triad-register", "host-register-leak", TRIAD,
         [sub(TRIAD_ALLOC,
              "    h_mem = (float *) malloc(sizeof(float) * numMaxFloats);\n"
              "    cudaHostRegister(h_mem, sizeof(float) * numMaxFloats, cudaHostRegisterDefault);\n"),
          sub(TRIAD_FREE, "    free(h_mem);\n")],
         "Triad's buffer malloc'd and registered, then freed still registered"),
    edit("shoc-s3d-register-t", "host-register-leak", S3D,
         [sub("    CUDA_SAFE_CALL(cudaMallocHost((void**)&host_t,        n*sizeof(real)));\n",
              "    host_t = (real *) malloc(n*sizeof(real));\n"
              "    CUDA_SAFE_CALL(cudaHostRegister(host_t, n*sizeof(real), cudaHostRegisterDefault));\n"),
          sub("    CUDA_SAFE_CALL(cudaFreeHost(host_t));\n", "    free(host_t);\n")],
         "S3D's temperatures malloc'd and registered, then freed still registered"),

    # unsynchronized-access
    edit("shoc-triad-no-final-sync", "unsynchronized-access", TRIAD,
         [delete("            cudaThreadSynchronize();\n")],
         "the wait after the pipeline deleted: the correctness check reads h_mem while the "
         "last D2H copies may be in flight",
         at="                if (h_mem[j] != h_mem[j+halfNumFloats])"),
    edit("shoc-reduction-async-readback", "unsynchronized-access", RED,
         [sub(RED_D2H,
              "        CUDA_SAFE_CALL(cudaMemcpyAsync(h_odata, d_odata,\n"
              "                num_blocks*sizeof(T), cudaMemcpyDeviceToHost, 0));\n"
              "        cudaEventRecord(stop, 0);\n")],
         "the partial sums read back with cudaMemcpyAsync into the pinned h_odata and the "
         "event wait dropped: the host sums them in flight",
         at="            dev_result += h_odata[i];"),

    # sync-in-loop
    edit("shoc-triad-device-sync-per-block", "sync-in-loop", TRIAD,
         [sub(TRIAD_D2H_END, TRIAD_D2H_END + "                cudaDeviceSynchronize();\n")],
         "the pipeline loop waits for the device after each block's D2H copy, so blocks on "
         "the two streams no longer overlap"),
    edit("shoc-s3d-wait-gr-base", "sync-in-loop", S3D,
         [sub(S3D_GR_BASE, S3D_GR_BASE + "        CUDA_SAFE_CALL(cudaStreamSynchronize(s2));\n")],
         "gr_base's stream waited for on the host inside the pass loop (to order it before "
         "ratx's read of gpu_c) instead of with an event"),

    # pinned-alloc-in-loop
    edit("shoc-triad-pin-per-size", "pinned-alloc-in-loop", TRIAD,
         [delete(TRIAD_ALLOC),
          delete(TRIAD_FREE),
          sub("            int elemsInBlock = blockSizes[i] * 1024 / sizeof(float);\n",
              "            int elemsInBlock = blockSizes[i] * 1024 / sizeof(float);\n"
              "            cudaMallocHost((void**) &h_mem, sizeof(float) * numMaxFloats);\n"),
          sub("            // Zero out the test host memory\n"
              "            for (int j=0; j<numMaxFloats; ++j)\n"
              "                h_mem[j] = 0.0f;\n",
              "            cudaFreeHost(h_mem);\n")],
         "Triad's pinned buffer allocated for each block size inside the size loop that "
         "streams it, and freed at the end of each size"),
    edit("shoc-s3d-pin-wdot-per-pass", "pinned-alloc-in-loop", S3D,
         [delete("    CUDA_SAFE_CALL(cudaMallocHost((void**)&host_wdot,WDOT_SIZE*n*sizeof(real)));\n"),
          delete("    CUDA_SAFE_CALL(cudaFreeHost(host_wdot));\n"),
          sub("        // Copy back result\n",
              "        // Copy back result\n"
              "        CUDA_SAFE_CALL(cudaMallocHost((void**)&host_wdot,WDOT_SIZE*n*sizeof(real)));\n"),
          sub(S3D_D2H, S3D_D2H + "        CUDA_SAFE_CALL(cudaFreeHost(host_wdot));\n")],
         "S3D's result buffer pinned anew for each pass's async D2H copy and freed after it"),
    edit("shoc-reduction-pin-per-pass", "pinned-alloc-in-loop", RED,
         [delete("    T* h_odata;\n"
                 "    CUDA_SAFE_CALL(cudaMallocHost((void**)&h_odata, num_blocks * sizeof(T)));\n"),
          delete("    CUDA_SAFE_CALL(cudaFreeHost(h_odata));\n"),
          sub("        // Copy back to host\n",
              "        // Copy back to host\n"
              "        T* h_odata;\n"
              "        CUDA_SAFE_CALL(cudaMallocHost((void**)&h_odata, num_blocks * sizeof(T)));\n"),
          sub("            dev_result += h_odata[i];\n        }\n",
              "            dev_result += h_odata[i];\n        }\n"
              "        CUDA_SAFE_CALL(cudaFreeHost(h_odata));\n")],
         "the reduction's partial-sum buffer pinned and released in every pass"),
    edit("shoc-readback-pin-per-size", "pinned-alloc-in-loop", RB,
         [sub("            cudaEventRecord(start, 0);\n"
              "            cudaMemcpy(hostMem2, device,\n"
              "                       nbytes, cudaMemcpyDeviceToHost);\n"
              "            cudaEventRecord(stop, 0);\n"
              "            cudaEventSynchronize(stop);\n",
              "            float *readback;\n"
              "            cudaMallocHost((void**)&readback, nbytes);\n"
              "            cudaEventRecord(start, 0);\n"
              "            cudaMemcpy(readback, device,\n"
              "                       nbytes, cudaMemcpyDeviceToHost);\n"
              "            cudaEventRecord(stop, 0);\n"
              "            cudaEventSynchronize(stop);\n"
              "            cudaFreeHost(readback);\n")],
         "a pinned readback buffer of each size allocated and freed inside the size loop"),

    # default-stream
    edit("shoc-triad-kernel-legacy", "default-stream", TRIAD,
         [sub("                        triad<<<globalWorkSize, blockSize, 0, streams[1]>>>\n",
              "                        triad<<<globalWorkSize, blockSize>>>\n")],
         "the pipeline's stream-1 kernel launched without its stream"),
    edit("shoc-triad-first-h2d-legacy", "default-stream", TRIAD,
         [sub("            cudaMemcpyAsync(d_memB0, h_mem, blockSizes[i] * 1024,\n"
              "                    cudaMemcpyHostToDevice, streams[0]);\n",
              "            cudaMemcpyAsync(d_memB0, h_mem, blockSizes[i] * 1024,\n"
              "                    cudaMemcpyHostToDevice, 0);\n")],
         "the first block's second upload issued on stream 0"),
    edit("shoc-s3d-gr-base-legacy", "default-stream", S3D,
         [sub(S3D_GR_BASE,
              "        gr_base        <<<blks2,thrds2>>>(gpu_p, gpu_t, gpu_y,\n"
              "                                               gpu_c, tconv, pconv);\n")],
         "S3D's gr_base kernel (stream s2) launched on the legacy stream"),
    edit("shoc-s3d-h2d-legacy", "default-stream", S3D,
         [sub("    CUDA_SAFE_CALL(cudaMemcpyAsync(gpu_p, host_p, n*sizeof(real),\n"
              "            cudaMemcpyHostToDevice, s2));\n",
              "    CUDA_SAFE_CALL(cudaMemcpyAsync(gpu_p, host_p, n*sizeof(real),\n"
              "            cudaMemcpyHostToDevice));\n")],
         "S3D's pressure upload issued without its stream"),
]
