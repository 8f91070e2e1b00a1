"""Injected bugs in NVIDIA/CUDALibrarySamples (commit 34377293): the cuBLAS,
cuSOLVER and cuFFT examples (the manifest's 'library-samples'). Each example
issues its work on one stream, created cudaStreamNonBlocking (cuBLAS,
cuSOLVER, cuFFT, cuRAND) or blocking (cuBLASLt's TestBench, whose copies are
in the template header helpers.h and so cannot be edited in a file linted on
its own), and copies std::vector storage, already pageable and reported: the
examples have no site for default-stream or sync-in-loop (no loop over
streams, no second stream), for pageable-copy (no pinned buffer is copied),
or for unsynchronized-access (no pinned or registered buffer is copied; a
pageable copy is synchronous). The pinned host workspaces of cuSOLVER's
Xgeev examples and the device buffers of every example are the sites of
dealloc-mismatch and host-register-leak; the per-batch copy loops of the
batched BLAS examples those of pinned-alloc-in-loop."""
from . import edit, sub, after, before, delete

R = "library-samples:"
XG1 = R + "cuSOLVER/Xgeev/cusolver_Xgeev_example1.cu"
XG2 = R + "cuSOLVER/Xgeev/cusolver_Xgeev_example2.cu"
GEMM = R + "cuBLAS/Level-3/gemm/cublas_gemm_example.cu"
FFT3 = R + "cuFFT/3d_c2c/3d_c2c_example.cpp"
GB = R + "cuBLAS/Level-3/gemmBatched/cublas_gemmBatched_example.cu"
TB = R + "cuBLAS/Level-3/trsmBatched/cublas_trsmBatched_example.cu"
GBX = R + "cuBLAS/Extensions/GemmBatchedEx/cublas_GemmBatchedEx_example.cu"

XG_ALLOC = ("    CUDA_CHECK(cudaMallocHost(&h_work, workspaceInBytesOnHost)); "
            "// pinned host memory for best performance\n")
XG_FREE = "    CUDA_CHECK(cudaFreeHost(h_work));\n"
BATCH_H2D_A = ("        CUDA_CHECK(cudaMemcpyAsync(d_A[i], A_array[i].data(), "
               "sizeof(data_type) * A_array[i].size(),\n")

EDITS = [
    # dealloc-mismatch: the pinned workspace, or device memory, released with free.
    edit("ls-xgeev1-free-pinned-work", "dealloc-mismatch", XG1,
         [sub(XG_FREE, "    free(h_work);\n")],
         "Xgeev's pinned host workspace released with free"),
    edit("ls-xgeev2-free-pinned-work", "dealloc-mismatch", XG2,
         [sub(XG_FREE, "    free(h_work);\n")],
         "Xgeev's pinned host workspace released with free (second example)"),
    edit("ls-gemm-free-device", "dealloc-mismatch", GEMM,
         [sub("    CUDA_CHECK(cudaFree(d_A));\n", "    free(d_A);\n")],
         "the cudaMalloc'd A released with free"),
    edit("ls-fft3d-free-device", "dealloc-mismatch", FFT3,
         [sub("    CUDA_RT_CALL(cudaFree(d_data))\n", "    free(d_data);\n")],
         "the cudaMalloc'd FFT data released with free"),

    # host-register-leak: the workspace malloc'd and registered, freed still registered.
    edit("ls-xgeev1-register-work", "host-register-leak", XG1,
         [sub(XG_ALLOC,
              "    h_work = malloc(workspaceInBytesOnHost);\n"
              "    CUDA_CHECK(cudaHostRegister(h_work, workspaceInBytesOnHost, cudaHostRegisterDefault));\n"),
          sub(XG_FREE, "    free(h_work);\n")],
         "the host workspace malloc'd and registered, freed still registered"),
    edit("ls-xgeev2-register-work", "host-register-leak", XG2,
         [sub(XG_ALLOC,
              "    h_work = malloc(workspaceInBytesOnHost);\n"
              "    CUDA_CHECK(cudaHostRegister(h_work, workspaceInBytesOnHost, cudaHostRegisterDefault));\n"),
          sub(XG_FREE, "    free(h_work);\n")],
         "the host workspace malloc'd and registered, freed still registered (second example)"),

    # pinned-alloc-in-loop: each batch's host matrix pinned inside the copy loop.
    edit("ls-gemmbatched-register-per-batch", "pinned-alloc-in-loop", GB,
         [before(BATCH_H2D_A,
                 "        CUDA_CHECK(cudaHostRegister(A_array[i].data(), sizeof(data_type) * A_array[i].size(),\n"
                 "                                    cudaHostRegisterDefault));\n")],
         "each batch's A registered inside the loop that copies it"),
    edit("ls-trsmbatched-register-per-batch", "pinned-alloc-in-loop", TB,
         [before(BATCH_H2D_A,
                 "        CUDA_CHECK(cudaHostRegister(B_array[i].data(), sizeof(data_type) * B_array[i].size(),\n"
                 "                                    cudaHostRegisterDefault));\n")],
         "each batch's B (copied there and back) registered inside the H2D loop"),
    edit("ls-gemmbatchedex-staging-per-batch", "pinned-alloc-in-loop", GBX,
         [sub(BATCH_H2D_A,
              "        data_type *h_stage = nullptr;\n"
              "        CUDA_CHECK(cudaMallocHost(&h_stage, sizeof(data_type) * A_array[i].size()));\n"
              "        std::copy(A_array[i].begin(), A_array[i].end(), h_stage);\n"
              "        CUDA_CHECK(cudaMemcpyAsync(d_A[i], h_stage, sizeof(data_type) * A_array[i].size(),\n")],
         "a pinned staging buffer allocated per batch inside the copy loop (never reused)"),
]
