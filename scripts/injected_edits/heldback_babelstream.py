"""Held-back injected bugs in UoB-HPC/BabelStream (commit 57637d57), CUDA
model (src/cuda/CUDAStream.cu): one non-blocking stream, a zero-copy pinned
buffer for the dot product's partial sums, blocking read-back of the arrays
into std::vectors. There is little async code, so only a few edits are
plausible. The repository is named 'babelstream' as the held-back manifest
names it."""
from . import edit, sub, after, before, delete

R = "babelstream:"
CS = R + "src/cuda/CUDAStream.cu"

EDITS = [
    edit("bs-get-arrays-async", "pageable-copy", CS,
         [sub("  CU(cudaMemcpy(h_a.data(), d_a, nbytes, cudaMemcpyDeviceToHost));\n"
              "  CU(cudaMemcpy(h_b.data(), d_b, nbytes, cudaMemcpyDeviceToHost));\n"
              "  CU(cudaMemcpy(h_c.data(), d_c, nbytes, cudaMemcpyDeviceToHost));\n",
              "  CU(cudaMemcpyAsync(h_a.data(), d_a, nbytes, cudaMemcpyDeviceToHost, stream));\n"
              "  CU(cudaMemcpyAsync(h_b.data(), d_b, nbytes, cudaMemcpyDeviceToHost, stream));\n"
              "  CU(cudaMemcpyAsync(h_c.data(), d_c, nbytes, cudaMemcpyDeviceToHost, stream));\n"
              "  CU(cudaStreamSynchronize(stream));\n")],
         "the three verification read-backs made cudaMemcpyAsync on the benchmark's stream, "
         "into std::vector storage"),
    edit("bs-dtor-free-sums", "dealloc-mismatch", CS,
         [sub("  free_host(sums);\n", "  free(sums);\n")],
         "the destructor releases the cudaHostAlloc'd partial sums with free"),
    edit("bs-alloc-host-register", "host-register-leak", CS,
         [sub("  CU(cudaHostAlloc(&p, array_bytes, cudaHostAllocDefault));\n",
              "  p = (T*)malloc(array_bytes);\n"
              "  CU(cudaHostRegister(p, array_bytes, cudaHostRegisterMapped));\n"),
          sub("  CU(cudaFreeHost(p));\n", "  free(p);\n")],
         "alloc_host pins malloc'd memory with cudaHostRegister (mapped, for the dot kernel's "
         "zero-copy writes); free_host frees it without cudaHostUnregister"),
]
