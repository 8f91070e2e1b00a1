"""Injected bugs in ROCm/HIP-Examples (commit cdf9d10): applications that
allocate with hipHostMalloc (compiled as HIP)."""
from . import edit, sub

R = "HIP-Examples:HIP-Examples-Applications/"

EDITS = [
    edit("hip-dct-free", "dealloc-mismatch", R + "dct/dct.cpp",
         [sub("    hipHostFree(inputBuffer);\n", "    free(inputBuffer);\n")],
         "the pinned input released with free"),
    edit("hip-dwt-free", "dealloc-mismatch", R + "dwtHaar1D/dwtHaar1D.cpp",
         [sub("    hipHostFree(dOutDataBuf);\n", "    free(dOutDataBuf);\n")],
         "the pinned output released with free"),
    edit("hip-fwt-free", "dealloc-mismatch",
         R + "FastWalshTransform/FastWalshTransform.cpp",
         [sub("    hipHostFree(inputBuffer);\n", "    free(inputBuffer);\n")],
         "the pinned input released with free"),
    edit("hip-binomial-delete", "dealloc-mismatch",
         R + "BinomialOption/BinomialOption.cpp",
         [sub("    hipHostFree(randBuffer);\n", "    delete[] randBuffer;\n")],
         "the pinned random numbers released with delete[]"),
]
