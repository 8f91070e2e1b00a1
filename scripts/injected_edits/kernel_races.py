"""Injected kernel races (issue 55): in real files where a kernel writes
managed or mapped pinned memory and the host reads it after a wait, the
wait deleted. Each edit's `at` is the host's read the race shows at. The
files are of the corpus's repositories (docs/real-code/corpus.json); none
of them was read while the kernel rules were written."""
from . import delete, edit, sub

EDITS = [
    edit("kr-haxpy-sync", "unsynchronized-access",
         "code-samples:posts/mixed-precision/haxpy.cu",
         [delete("  checkCuda(cudaDeviceSynchronize());\n")],
         "haxpy writes managed y; the host prints y[i] with no wait",
         at="printf(\"%f\\n\", half_to_float(y[i]));"),
    edit("kr-dataelem-launch-sync", "unsynchronized-access",
         "code-samples:posts/unified-memory/dataElem_um.cu",
         [sub("  Kernel<<< 1, 1 >>>(elem);\n  cudaDeviceSynchronize();\n",
              "  Kernel<<< 1, 1 >>>(elem);\n")],
         "launch() returns with the kernel writing the managed element; main "
         "prints it",
         at="printf(\"On host: name=%s, value=%d\\n\", e->name, e->value);"),
    edit("kr-estimate-sum-sync", "unsynchronized-access",
         "cuda-training-series:exercises/hw12/task2_solution.cu",
         [sub("  err = cudaDeviceSynchronize();\n", "  err = cudaGetLastError();\n")],
         "the kernel accumulates into managed *sum; the host prints it",
         at="std::cout << \"Estimated value: \" << *sum"),
    edit("kr-zero-copy-sync", "unsynchronized-access",
         "cuda-samples:Samples/0_Introduction/simpleZeroCopy/simpleZeroCopy.cu",
         [delete("    checkCudaErrors(cudaDeviceSynchronize());\n"
                 "    getLastCudaError(\"vectorAddGPU() execution failed\");\n")],
         "vectorAddGPU writes mapped c through its device pointer; the host "
         "checks c with no wait",
         at="diff = c[n] - ref;"),
    edit("kr-dataelem-cxx-launch-sync", "unsynchronized-access",
         "code-samples:posts/unified-memory/dataElem_um_c++_1.cu",
         [sub("  Kernel<<< 1, 1 >>>(elem);\n  cudaDeviceSynchronize();\n",
              "  Kernel<<< 1, 1 >>>(elem);\n")],
         "launch() returns with the kernel writing the element, whose class "
         "allocates itself in managed memory; main prints it",
         at="printf(\"On host: name=%s, value=%d\\n\", e->name, e->value);"),
    edit("kr-system-atomics-sync", "unsynchronized-access",
         "cuda-samples:Samples/0_Introduction/systemWideAtomics/systemWideAtomics.cu",
         [delete("    checkCudaErrors(cudaDeviceSynchronize());\n\n"
                 "    // Compute & verify reference solution\n")],
         "atomicKernel updates managed atom_arr; verify() reads it with no wait",
         at="int testResult = verify(atom_arr, 2 * numThreads * numBlocks);"),
]
