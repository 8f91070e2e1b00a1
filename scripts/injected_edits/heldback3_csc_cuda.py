"""Held-back injected bugs (third set) in csc-training/CUDA (commit
30ad78b2), its exercise solutions: CSC (Finland) course material, each
exercise a directory with a skeleton (#error markers where students write
code) and a solution/: two streams' worth of vector addition split over
two GPUs with a created stream per device and cudaMallocHost vectors
(multi-GPU/solution/ex5.cu), a stream test that doubles the number of
streams and times copy-kernel-copy sequences per stream against the default
stream (simple-streams/solution/streams.cu), Jacobi with events, MPI
ping-pong through pinned host memory, unified memory with streams. Only
the solutions and the demo are linted (the manifest's `only`). The
repository is named 'csc-cuda' as the held-back manifest names it.

Real bugs of the seven kinds noticed while reading the pristine code: none.
simple-streams/solution/streams.cu's default_stream() issues its
cudaMemcpyAsync on the legacy stream on purpose (the reference timing, with
no created stream in that function).
"""
from . import edit, sub, after, before, delete

R = "csc-cuda:exercises/"
EX5 = R + "multi-GPU/solution/ex5.cu"
STR = R + "simple-streams/solution/streams.cu"

EDITS = [
    edit("hb3csc-ex5-input-malloc", "pageable-copy", EX5,
         [sub("    CUDA_CHECK( cudaMallocHost((void**)&hA, sizeof(double) * N) );\n",
              "    hA = (double *) malloc(sizeof(double) * N);\n"),
          sub("    CUDA_CHECK( cudaFreeHost((void*)hA) );\n", "    free(hA);\n")],
         "the first input vector allocated with malloc: each device's "
         "cudaMemcpyAsync of its half is a pageable upload and the two GPUs' "
         "transfers no longer overlap"),
    edit("hb3csc-ex5-output-free", "dealloc-mismatch", EX5,
         [sub("    CUDA_CHECK( cudaFreeHost((void*)hC) );\n", "    free(hC);\n")],
         "the pinned result vector (cudaMallocHost) released with free"),
    edit("hb3csc-ex5-input-registered-then-freed", "host-register-leak", EX5,
         [sub("    CUDA_CHECK( cudaMallocHost((void**)&hB, sizeof(double) * N) );\n",
              "    hB = (double *) malloc(sizeof(double) * N);\n"
              "    CUDA_CHECK( cudaHostRegister(hB, sizeof(double) * N, cudaHostRegisterDefault) );\n"),
          sub("    CUDA_CHECK( cudaFreeHost((void*)hB) );\n", "    free(hB);\n")],
         "the second input pinned by registering a malloc'd vector instead of "
         "cudaMallocHost, and freed at the end without cudaHostUnregister"),
    edit("hb3csc-ex5-download-wait-per-device", "sync-in-loop", EX5,
         [sub("                                    cudaMemcpyDeviceToHost, strm[i]) );\n    }\n",
              "                                    cudaMemcpyDeviceToHost, strm[i]) );\n"
              "        CUDA_CHECK( cudaStreamSynchronize(strm[i]) );\n    }\n")],
         "the two-GPU loop waits for the first device's stream before issuing the "
         "second device's copies and kernel, so the GPUs work one after the other"),
    edit("hb3csc-ex5-kernel-legacy", "default-stream", EX5,
         [sub("        vector_add<<<grid, threads, 0, strm[i]>>>(dC[i], dA[i], dB[i], ",
              "        vector_add<<<grid, threads>>>(dC[i], dA[i], dB[i], ")],
         "the vector-add kernel launched on the legacy stream inside the per-device "
         "stream loop: the download on strm[i] waits for it through the implicit "
         "synchronization"),
    edit("hb3csc-streams-wait-per-stream", "sync-in-loop", STR,
         [sub("                                    cudaMemcpyDeviceToHost, s[i].strm) );\n    }    \n",
              "                                    cudaMemcpyDeviceToHost, s[i].strm) );\n"
              "        CUDA_CHECK( cudaStreamSynchronize(s[i].strm) );\n    }    \n")],
         "streamtest waits for each stream's copy-kernel-copy sequence inside the loop "
         "over the streams, which removes the overlap the test measures"),
    edit("hb3csc-streams-kernel-legacy", "default-stream", STR,
         [sub("        vector_add<<<grid, threads, 0, s[i].strm>>>(&(dC[sidx]), &(dA[sidx]),",
              "        vector_add<<<grid, threads>>>(&(dC[sidx]), &(dA[sidx]),")],
         "streamtest launches each part's kernel on the legacy stream between the "
         "part's copies on its created stream: every stream's copies wait for it and "
         "the parts no longer overlap"),
    edit("hb3csc-streams-output-pinned-per-test", "pinned-alloc-in-loop", STR,
         [after("        int stream_count = 1<<strm;\n",
                "        CUDA_CHECK( cudaFreeHost((void*)hC) );\n"
                "        CUDA_CHECK( cudaMallocHost((void**)&hC, sizeof(double) * N) );\n")],
         "a fresh pinned result vector allocated (and the previous one freed) for every "
         "test of the loop over stream counts, whose streamtest downloads into it"),
]
