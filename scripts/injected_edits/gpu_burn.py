"""Injected bugs in wilicc/gpu-burn (commit 3ead140): a stress tester whose
GPU_Test object keeps a pinned error counter (driver API)."""
from . import after, edit, sub

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
    edit("gpuburn-pin-per-check", "pinned-alloc-in-loop", R,
         [after("    unsigned long long int getErrors() {\n",
                "        int *snapshot;\n"
                "        checkError(cuMemAllocHost((void **)&snapshot, sizeof(int)));\n"
                "        *snapshot = 0;\n"
                "        cuMemFreeHost(snapshot);\n")],
         "getErrors, called in the compute loop, pins and frees a scratch "
         "counter at every call (nccl-tests' CheckData)"),
]
