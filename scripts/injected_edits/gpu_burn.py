"""Injected bugs in wilicc/gpu-burn (commit 3ead140): a stress tester whose
GPU_Test object keeps a pinned error counter (driver API)."""
from . import edit, sub

R = "gpu-burn:gpu_burn-drv.cpp"
ALLOC = "        checkError(cuMemAllocHost((void **)&d_faultyElemsHost, sizeof(int)));\n"
FREE = "        cuMemFreeHost(d_faultyElemsHost);\n"

EDITS = [
    edit("gpuburn-free-pinned", "dealloc-mismatch", R,
         [sub(FREE, "        free(d_faultyElemsHost);\n")],
         "the pinned counter released with free in the destructor"),
    edit("gpuburn-pageable-counter", "pageable-copy", R,
         [sub(ALLOC, "        d_faultyElemsHost = (int *)malloc(sizeof(int));\n"),
          sub(FREE, "        free(d_faultyElemsHost);\n")],
         "the error counter malloc'd: its D2H copy in compare() is staged"),
    edit("gpuburn-register-counter", "host-register-leak", R,
         [sub(ALLOC, "        d_faultyElemsHost = (int *)malloc(sizeof(int));\n"
              "        checkError(cuMemHostRegister(d_faultyElemsHost, sizeof(int), 0));\n"),
          sub(FREE, "        free(d_faultyElemsHost);\n")],
         "the counter registered in the constructor, freed still registered"),
]
