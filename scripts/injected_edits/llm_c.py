"""Injected bugs in karpathy/llm.c (commit f1e2ace): the double-buffered
file transfers of llmc/cuda_common.h."""
from . import edit, sub

R = "llm.c:llmc/cuda_common.h"
D2F_LOOP_END = ("        fwriteCheck(write_buffer, 1, write_buffer_size, dest);\n"
                "        cudaCheck(cudaStreamSynchronize(stream));     "
                "// wait for both buffers to be ready.\n")
D2F_END = ("    fwriteCheck(write_buffer, 1, write_buffer_size, dest);\n"
           "    cudaCheck(cudaFreeHost(buffer_space));\n")
D2F_ALLOC = "    cudaCheck(cudaMallocHost(&buffer_space, 2*buffer_size));\n"

EDITS = [
    edit("llmc-d2f-no-wait", "unsynchronized-access", R,
         [sub(D2F_LOOP_END, "        fwriteCheck(write_buffer, 1, write_buffer_size, dest);\n")],
         "the buffer written to the file while the next chunk is copied into "
         "it (the per-iteration wait deleted)"),
    edit("llmc-d2f-pageable", "pageable-copy", R,
         [sub(D2F_ALLOC, "    buffer_space = (char*)malloc(2*buffer_size);\n")],
         "the staging buffer malloc'd"),
    edit("llmc-d2f-free", "dealloc-mismatch", R,
         [sub(D2F_END, "    fwriteCheck(write_buffer, 1, write_buffer_size, dest);\n"
              "    free(buffer_space);\n")],
         "the pinned staging buffer released with free"),
]
