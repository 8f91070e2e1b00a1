"""Held-back injected bugs (fourth set) in Sadort/HybridSort (commit
1f462f82), the code of a hybrid CPU/GPU sort (Gowanlock and Karsin,
ParCo 2019): one directory per pipeline variant under tests/, each with a
main (`*_Thrust.cpp`: random 64-bit keys in a malloc'd array, the GPU part
timed with events on the legacy stream, then a GNU-parallel multiway merge
on the CPU) and a `ThrustSort` in `Thrust_kernel.cu` that sorts the array
batch by batch with thrust::sort on two created streams, staging the keys
through two cudaHostAlloc'd buffers (`pinned_M[2]`) with memcpy and
cudaMemcpyAsync: BLineMulti* moves whole batches, PipeData* and PipeMerge*
move them in `pinned_M_size` chunks and overlap the upload of one stream
with the download of the other, PipeMerge* merges the previous pair of
batches on the CPU while the GPU sorts, the *_ParMemcpy variants copy into
and out of the pinned buffers with an OpenMP memcpy of another file
(`ParMemcpy`). The Bitonic variants need the missing submodule
ext/inplace-gpusort and are left out of the manifest's `only`; the mains
include <nvToolsExt.h>, which CUDA 13 has under include/nvtx3 (the
manifest's include path). The repository is named 'hybridsort' as the
held-back manifest names it.

Real bugs of the seven kinds noticed while reading the pristine code: none.
The staging is careful: every reuse of a pinned buffer is preceded by a
wait for the stream of its last copy. Not of the seven kinds: no variant
frees `pinned_M` (cudaFreeHost) or `d_key_array`; Merge_kernel.cpp's
PairMerge leaks its malloc'd `output_v` at every call; BLineMulti_Ext2 and
_Ext3 define start_index_s2 as the previous batch (2*i-1) where _Ext4
uploads the next one (2*i+2), so their early upload sends the wrong batch;
the mains time ThrustSort with events recorded on the legacy stream while
the work runs on created streams (blocking streams, so the timing holds).
"""
from . import edit, sub, after, before, delete

R = "hybridsort:tests/"
PD = R + "PipeData/Thrust_kernel.cu"
PDX = R + "PipeData_Ext/Thrust_kernel.cu"
PM = R + "PipeMerge/Thrust_kernel.cu"
E1 = R + "BLineMulti_Ext1/Thrust_kernel.cu"
E4 = R + "BLineMulti_Ext4/Thrust_kernel.cu"
E4P = R + "BLineMulti_Ext4_ParMemcpy/Thrust_kernel.cu"
BL = R + "BLine/BLine_Thrust.cu"

PINNED_PAIR_CHUNKS = (
    "    cudaHostAlloc( (void**)&pinned_M[0], (pinned_M_size / 2) * sizeof(uint64_t), cudaHostAllocDefault );\n"
    "    cudaHostAlloc( (void**)&pinned_M[1], (pinned_M_size / 2) * sizeof(uint64_t), cudaHostAllocDefault );\n")
PINNED_PAIR_BATCH = (
    "    cudaHostAlloc( (void**)&pinned_M[0], batch_size * sizeof(uint64_t), cudaHostAllocDefault );\n"
    "    cudaHostAlloc( (void**)&pinned_M[1], batch_size * sizeof(uint64_t), cudaHostAllocDefault );\n")

EDITS = [
    # unsynchronized-access
    edit("hb4hs-pipedata-download-read-before-wait", "unsynchronized-access", PD,
         [sub("                                (pinned_M_size/2)*sizeof(uint64_t));\n"
              "                    cudaStreamSynchronize(streams[1]);\n"
              "                    \n"
              "                    cudaMemcpyAsync(&d_key_array[0][b*(pinned_M_size/2)],\n",
              "                                (pinned_M_size/2)*sizeof(uint64_t));\n"
              "                    \n"
              "                    cudaMemcpyAsync(&d_key_array[0][b*(pinned_M_size/2)],\n")],
         "the overlapped chunk loop no longer waits for streams[1] before it copies the "
         "downloaded chunk out of pinned_M[1]: the memcpy into the key array may read "
         "the chunk while its cudaMemcpyAsync from the device is still running",
         at="std::memcpy(&h_key_array[start_index_s2+b*(pinned_M_size/2)],"),
    edit("hb4hs-ext4par-download-read-before-wait", "unsynchronized-access", E4P,
         [sub("                thrust::sort(thrust::cuda::par(alloc).on(streams[1]), th_key_array[1], th_key_array[1]+batch_size);\n"
              "                cudaDeviceSynchronize();\n"
              "                \n"
              "                ParMemcpy(&h_key_array[start_index_s0], pinned_M[0], batch_size, mem_threads);\n",
              "                thrust::sort(thrust::cuda::par(alloc).on(streams[1]), th_key_array[1], th_key_array[1]+batch_size);\n"
              "                \n"
              "                ParMemcpy(&h_key_array[start_index_s0], pinned_M[0], batch_size, mem_threads);\n")],
         "the device wait after the second batch's sort dropped: ParMemcpy (another "
         "file's OpenMP memcpy) reads the sorted first batch out of pinned_M[0] while its "
         "download on streams[0] may still be in flight",
         at="ParMemcpy(&h_key_array[start_index_s0], pinned_M[0], batch_size, mem_threads);"),
    edit("hb4hs-pipemerge-upload-source-refilled", "unsynchronized-access", PM,
         [sub("                                pinned_M[0],\n"
              "                                (pinned_M_size/2)*sizeof(uint64_t));\n"
              "                    cudaStreamSynchronize(streams[1]);\n"
              "                }\n"
              "                thrust::sort(thrust::cuda::par(alloc).on(streams[1])",
              "                                pinned_M[0],\n"
              "                                (pinned_M_size/2)*sizeof(uint64_t));\n"
              "                }\n"
              "                thrust::sort(thrust::cuda::par(alloc).on(streams[1])")],
         "the wait for streams[1] at the end of each chunk of the second batch dropped: "
         "the next chunk's memcpy refills pinned_M[1] while the previous chunk's upload "
         "from it on streams[1] may still be reading it",
         at="std::memcpy(pinned_M[1],"),
    # pageable-copy
    edit("hb4hs-pipedataext-staging-malloc", "pageable-copy", PDX,
         [sub(PINNED_PAIR_CHUNKS,
              "    pinned_M[0] = (uint64_t *)malloc((pinned_M_size / 2) * sizeof(uint64_t));\n"
              "    pinned_M[1] = (uint64_t *)malloc((pinned_M_size / 2) * sizeof(uint64_t));\n")],
         "the two staging buffers allocated with malloc: every chunk's cudaMemcpyAsync to "
         "and from them is staged by the driver and synchronous, so the upload of one "
         "stream no longer overlaps the download of the other"),
    edit("hb4hs-ext1-staging-new", "pageable-copy", E1,
         [sub(PINNED_PAIR_BATCH,
              "    pinned_M[0] = new uint64_t[batch_size];\n"
              "    pinned_M[1] = new uint64_t[batch_size];\n")],
         "the batch-sized staging buffers allocated with new[]: the batch uploads and "
         "downloads through them are pageable copies, staged and synchronous"),
    # pinned-alloc-in-loop
    edit("hb4hs-ext4-staging-per-batch-pair", "pinned-alloc-in-loop", E4,
         [delete(PINNED_PAIR_BATCH),
          sub("    for (int i = 0; i < number_of_batches / 2; i++) {\n",
              "    for (int i = 0; i < number_of_batches / 2; i++) {\n"
              "        cudaHostAlloc( (void**)&pinned_M[0], batch_size * sizeof(uint64_t), cudaHostAllocDefault );\n"
              "        cudaHostAlloc( (void**)&pinned_M[1], batch_size * sizeof(uint64_t), cudaHostAllocDefault );\n"),
          sub("                \n"
              "            }\n"
              "        }\n"
              "    }\n",
              "                \n"
              "            }\n"
              "        }\n"
              "        cudaFreeHost(pinned_M[0]);\n"
              "        cudaFreeHost(pinned_M[1]);\n"
              "    }\n")],
         "the two batch-sized staging buffers pinned (and released) for every pair of "
         "batches of the sort loop instead of once before it"),
    # sync-in-loop
    edit("hb4hs-ext4par-upload-waited-before-sort", "sync-in-loop", E4P,
         [sub("                                streams[1]);\n"
              "                thrust::sort(thrust::cuda::par(alloc).on(streams[0]), th_key_array[0], th_key_array[0]+batch_size);\n",
              "                                streams[1]);\n"
              "                cudaStreamSynchronize(streams[1]);\n"
              "                thrust::sort(thrust::cuda::par(alloc).on(streams[0]), th_key_array[0], th_key_array[0]+batch_size);\n")],
         "the batch loop waits for the next batch's upload on streams[1] before it sorts "
         "the current batch on streams[0] and merges on the CPU, so the upload no longer "
         "overlaps the sort"),
    edit("hb4hs-ext1-download-waited-before-upload", "sync-in-loop", E1,
         [sub("                                cudaMemcpyDeviceToHost,\n"
              "                                streams[1]);\n"
              "                cudaMemcpyAsync(d_key_array[0],\n",
              "                                cudaMemcpyDeviceToHost,\n"
              "                                streams[1]);\n"
              "                cudaStreamSynchronize(streams[1]);\n"
              "                cudaMemcpyAsync(d_key_array[0],\n")],
         "the overlapping step waits for the previous batch's download on streams[1] "
         "before it issues the next batch's upload on streams[0]: the two copies run one "
         "after the other in every iteration"),
    # default-stream
    edit("hb4hs-pipedata-upload-legacy", "default-stream", PD,
         [sub("                    cudaMemcpyAsync(&d_key_array[1][b*(pinned_M_size/2)],\n"
              "                                    pinned_M[1],\n"
              "                                    (pinned_M_size/2)*sizeof(uint64_t),\n"
              "                                    cudaMemcpyHostToDevice,\n"
              "                                    streams[1]);\n",
              "                    cudaMemcpyAsync(&d_key_array[1][b*(pinned_M_size/2)],\n"
              "                                    pinned_M[1],\n"
              "                                    (pinned_M_size/2)*sizeof(uint64_t),\n"
              "                                    cudaMemcpyHostToDevice,\n"
              "                                    0);\n")],
         "the second batch's chunk uploads issued on the legacy stream instead of "
         "streams[1]: each one waits for the download on streams[0] and holds back the "
         "next chunk's download, so the two directions no longer overlap"),
    # host-register-leak
    edit("hb4hs-bline-keys-registered-then-freed", "host-register-leak", BL,
         [sub("    printf(\"size : %lu\\n\", sizeof(uint64_t));\n",
              "    cudaHostRegister(h_key_array, number_of_elements*sizeof(uint64_t), cudaHostRegisterDefault);\n"
              "    printf(\"size : %lu\\n\", sizeof(uint64_t));\n"),
          sub("    return 0;\n}\n",
              "    free(h_key_array);\n    return 0;\n}\n")],
         "the baseline pins its malloc'd key array with cudaHostRegister for the two "
         "whole-array copies and frees it at the end without cudaHostUnregister"),
]
