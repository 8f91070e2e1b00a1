"""Injected bugs in the library repositories of the corpus:
facebookresearch/faiss (02dbb4e42). (nccl-tests' sources do not compile
here with nvcc either: this machine's NCCL is not the one they expect.)"""
from . import edit, sub

FAISS = "faiss:faiss/gpu/StandardGpuResources.cpp"

EDITS = [
    edit("faiss-pinned-free", "dealloc-mismatch", FAISS,
         [sub("        auto err = cudaFreeHost(pinnedMemAlloc_);\n",
              "        free(pinnedMemAlloc_);\n        cudaError_t err = cudaSuccess;\n")],
         "the resources object's pinned staging memory released with free"),
]
