"""Held-back injected bugs (third set) in JeanLucPons/VanitySearch (commit
c8d48ce5), its GPU engine (GPU/GPUEngine.cu): a Bitcoin vanity-address
search whose GPUEngine class keeps its host buffers in members allocated
with cudaHostAlloc (write-combined and mapped) in the constructor, uploads
keys and prefix tables with blocking cudaMemcpy, and reads the found-items
counter back with a cudaMemcpyAsync on stream 0 followed by a
cudaEventQuery polling loop that sleeps to spare the CPU. No created
streams. Only GPU/ is linted (the manifest's `only`): the host-side SSE
code needs -mssse3. The repository is named 'vanitysearch' as the held-back
manifest names it.

Real bugs of the seven kinds noticed while reading the pristine code: none.
Not of the seven kinds: the destructor (GPUEngine.cu:343) never frees
inputKeyPinned, which SetKeys frees only when rekey is false, nor
inputPrefixPinned when neither SetPrefix nor SetPattern ran (pinned leaks).
"""
from . import edit, sub, after, before, delete

ENG = "vanitysearch:GPU/GPUEngine.cu"

OUT_ALLOC = "  err = cudaHostAlloc(&outputPrefixPinned, outputSize, cudaHostAllocMapped);\n"
OUT_FREE = "  cudaFreeHost(outputPrefixPinned);\n"
NB_FOUND = "  uint32_t nbFound = outputPrefixPinned[0];"

EDITS = [
    edit("hb3vs-output-malloc", "pageable-copy", ENG,
         [sub(OUT_ALLOC,
              "  outputPrefixPinned = (uint32_t *)malloc(outputSize);\n"
              "  err = (outputPrefixPinned == NULL) ? cudaErrorMemoryAllocation : cudaSuccess;\n"),
          sub(OUT_FREE, "  free(outputPrefixPinned);\n")],
         "the engine's output buffer allocated with malloc (its mapped pointer is never "
         "used): Launch's cudaMemcpyAsync of the item count into it is a pageable "
         "download, staged and synchronous"),
    edit("hb3vs-output-cudafree", "dealloc-mismatch", ENG,
         [sub(OUT_FREE, "  cudaFree(outputPrefixPinned);\n")],
         "the destructor releases the cudaHostAlloc'd output buffer with cudaFree"),
    edit("hb3vs-pattern-prefix-free", "dealloc-mismatch", ENG,
         [sub("  strcpy((char *)inputPrefixPinned,pattern);\n\n"
              "  // Fill device memory\n"
              "  cudaMemcpy(inputPrefix, inputPrefixPinned, _64K * 2, cudaMemcpyHostToDevice);\n\n"
              "  // We do not need the input pinned memory anymore\n"
              "  cudaFreeHost(inputPrefixPinned);\n",
              "  strcpy((char *)inputPrefixPinned,pattern);\n\n"
              "  // Fill device memory\n"
              "  cudaMemcpy(inputPrefix, inputPrefixPinned, _64K * 2, cudaMemcpyHostToDevice);\n\n"
              "  // We do not need the input pinned memory anymore\n"
              "  free(inputPrefixPinned);\n")],
         "SetPattern releases the pinned prefix staging (cudaHostAlloc in the "
         "constructor) with free"),
    edit("hb3vs-count-read-without-poll", "unsynchronized-access", ENG,
         [sub("    cudaEventRecord(evt, 0);\n"
              "    while (cudaEventQuery(evt) == cudaErrorNotReady) {\n"
              "      // Sleep 1 ms to free the CPU\n"
              "      Timer::SleepMillis(1);\n"
              "    }\n",
              "    cudaEventRecord(evt, 0);\n")],
         "the event polling loop after the async read-back of the found count removed: "
         "Launch reads outputPrefixPinned[0] while the copy may still be running",
         at=NB_FOUND),
    edit("hb3vs-spinwait-copy-made-async", "unsynchronized-access", ENG,
         [sub("    cudaMemcpy(outputPrefixPinned, outputPrefix, outputSize, cudaMemcpyDeviceToHost);\n",
              "    cudaMemcpyAsync(outputPrefixPinned, outputPrefix, outputSize, "
              "cudaMemcpyDeviceToHost, 0);\n")],
         "the spin-wait branch's blocking read-back turned into cudaMemcpyAsync (to stop "
         "cudaMemcpy spinning) with no wait before the count is read",
         at=NB_FOUND),
]
