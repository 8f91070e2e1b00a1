"""Held-back injected bugs (fifth set) in NVIDIA/nvidia-hpcg (commit
b0eb5c5f), NVIDIA's optimized HPCG benchmark (conjugate gradient with a
multigrid preconditioner on a 27-point stencil), C++ with MPI, NCCL,
cuSPARSE and cuBLAS. The host code runs on two global created streams
(stream, copy_stream, main.cpp) that the cuSPARSE and cuBLAS handles are
bound to; halos are packed on the GPU, downloaded into a cudaMallocHost'd
send buffer on copy_stream (PackSendBufferCuda) and exchanged through MPI
or NCCL, the received part of x uploaded back and joined to the compute
stream with an event (ExchangeHaloCuda, CudaKernels.cu); set-up code reads
sizes back with cudaMemcpyAsync + cudaStreamSynchronize; Vector.hpp pins
every vector's host copy with cudaMallocHost. Built as setup/Make.CUDA_X86
does (HPCG_CUBIC_RADICAL_SEARCH, HPCG_CONTIGUOUS_ARRAYS, USE_CUDA,
USE_NCCL), including src and the MPI headers. The repository is named
'nvidia-hpcg' as the held-back manifest names it.

Real bugs of the seven kinds noticed while reading the pristine code:

- src/OptimizeProblem.cpp:126-133, pageable-copy: the sizes of the L and U
  sliced-ELL matrices are read back with cudaMemcpyAsync into the stack
  locals sell_l_nnz and sell_u_nnz on 'stream' and used at once by
  cusparseCreateSlicedEll, with no wait: correct only because the copies
  are staged and synchronous.
- src/SetupHalo.cpp:131 and :213, pageable-copy: the elements to send are
  downloaded into, and the received indices uploaded from, new[]'d arrays
  (set-up, followed by a stream wait).
"""
from . import edit, sub, after, before, delete

R = "nvidia-hpcg:src/"
KERN = R + "CudaKernels.cu"
INIT = R + "init.cpp"

EDITS = [
    edit("hb5hp-sendbuffer-delete", "dealloc-mismatch", KERN,
         [sub("            CHECK_CUDART(cudaFreeHost(AA->sendBuffer));\n",
              "            delete[] AA->sendBuffer;\n")],
         "the matrix clean-up releases the halo send buffer, pinned with cudaMallocHost in "
         "SetupHalo (SetupHalo.cpp), with delete[] like the index arrays next to it "
         "(found with the whole program's field summaries)"),
    edit("hb5hp-touch-pinned-free", "dealloc-mismatch", INIT,
         [sub("        // Touch Pinned Memory\n"
              "        double* t;\n"
              "        CHECK_CUDART(cudaMallocHost((void**) (&(t)), sizeof(double)));\n"
              "        CHECK_CUDART(cudaFreeHost(t));\n",
              "        // Touch Pinned Memory\n"
              "        double* t;\n"
              "        CHECK_CUDART(cudaMallocHost((void**) (&(t)), sizeof(double)));\n"
              "        free(t);\n")],
         "the GPU-only start-up touches the pinned allocator with one cudaMallocHost'd "
         "double and releases it with free"),
    edit("hb5hp-touch-registered", "host-register-leak", INIT,
         [sub("            // Touch Pinned Memory\n"
              "            double* t;\n"
              "            CHECK_CUDART(cudaMallocHost((void**) (&(t)), sizeof(double)));\n"
              "            CHECK_CUDART(cudaFreeHost(t));\n",
              "            // Touch Pinned Memory\n"
              "            double* t = (double*) malloc(sizeof(double));\n"
              "            CHECK_CUDART(cudaHostRegister(t, sizeof(double), cudaHostRegisterDefault));\n"
              "            free(t);\n")],
         "the CPU+GPU start-up touches pinned memory by registering a malloc'd double, "
         "then frees it without cudaHostUnregister",
         at="            free(t);"),
]
