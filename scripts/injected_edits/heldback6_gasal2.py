"""Held-back injected bugs (sixth set) in nahmedraja/GASAL2 (commit
106d94ee), a GPU library for batched pairwise sequence alignment (local,
semi-global, global, banded and KSW-style extension of DNA reads), written
in C-style C++ over plain structs; named 'gasal2' as the held-back manifest
names it. Its asynchronous host code: gasal_init_streams (src/ctors.cpp)
fills an array of gasal_gpu_storage_t, one per stream (created with
cudaStreamCreate), each holding cudaHostAlloc'd host arrays (lengths,
offsets, reverse-complement ops, seed scores, results in a gasal_res_t made
by gasal_res_new_host, src/res.cpp) and a linked list of pinned pages of
sequence bytes (host_batch_t, gasal_host_batch_new in src/host_batch.cpp);
gasal_aln_async (src/gasal_align.cu) uploads a batch's pages and arrays with
cudaMemcpyAsync on the storage's stream, launches the packing,
reverse-complement and alignment kernels there, queues the result downloads
and returns; the caller polls gasal_is_aln_async_done (cudaStreamQuery) and
reads the results once it says the stream is done. The library's Makefile
builds the .cu file with nvcc `--default-stream per-thread` and
-DMAX_QUERY_LEN, -DN_CODE (the code of 'N', 0x4E in its README) and the
.cpp files with g++ and the same defines; the manifest passes
MAX_QUERY_LEN=160 and N_CODE=0x4E and the nvcc option as nvccFlags. src/gasal.h
includes cuda_runtime.h by an absolute path (/usr/local/cuda-10.1/...) that
the build's first step, ./configure.sh CUDA_PATH, rewrites: the checkout in
/tmp/allcorpus/gasal2 has had `./configure.sh /usr/local/cuda` run (src/gasal.h,
Makefile and test_prog/Makefile modified, one line each). Only
the library (src/) is selected: test_prog/test_prog.cpp includes
"../include/gasal_header.h", a directory the library's `make` creates by
copying src/*.h, absent from a checkout.

Because gasal_align.cu is built with the per-thread default stream, moving
its work off the storage's stream would not serialize anything (it would
race instead), and the loops that issue on several streams live in the
caller (test_prog), not in the library: no default-stream or sync-in-loop
edit is written here.

Real bugs of the seven kinds noticed while reading the pristine code: none.
(Two of other kinds: gasal_destroy_streams, src/ctors.cpp:150-154, frees
the KSW seed-score arrays only when the algorithm is NOT KSW, leaking the
cudaHostAlloc'd host_seed_scores when it is; and gasal_res_new_host,
src/res.cpp:14, mallocs the result struct without initializing cigar and
n_cigar_ops, which gasal_destroy_streams (:165) and gasal_res_destroy_host
(:155) pass to cudaFreeHost when they are not NULL, so without traceback
they free an indeterminate pointer.)
"""
from . import edit, sub, after, before, delete

R = "gasal2:src/"
ALIGN = R + "gasal_align.cu"
BATCH = R + "host_batch.cpp"
RES = R + "res.cpp"
CTORS = R + "ctors.cpp"

PAGE_ALLOC = ("\tCHECKCUDAERROR(cudaHostAlloc(&(res->data), batch_bytes*sizeof(uint8_t), "
              "cudaHostAllocDefault));\n")
PAGE_FREE = "\t\tCHECKCUDAERROR(cudaFreeHost(res->data));\n"

EDITS = [
    edit("hb6ga-subst-gapoe-async-stack", "pageable-copy", ALIGN,
         [sub("\tCHECKCUDAERROR(cudaMemcpyToSymbol(_cudaGapOE, &(gapoe), sizeof(int32_t), 0, "
              "cudaMemcpyHostToDevice));\n",
              "\tCHECKCUDAERROR(cudaMemcpyToSymbolAsync(_cudaGapOE, &(gapoe), sizeof(int32_t), 0, "
              "cudaMemcpyHostToDevice, 0));\n")],
         "gasal_copy_subst_scores sends the combined gap-open-extend penalty with "
         "cudaMemcpyToSymbolAsync from the stack scalar gapoe: a pageable source, staged and "
         "synchronous, and gapoe dies when the function returns"),
    edit("hb6ga-cigar-regrow-malloc", "pageable-copy", ALIGN,
         [sub("\t\t\tif (gpu_storage->host_res->cigar != NULL)CHECKCUDAERROR(cudaFreeHost("
              "gpu_storage->host_res->cigar));\n"
              "\t\t\tCHECKCUDAERROR(cudaHostAlloc(&(gpu_storage->host_res->cigar), "
              "gpu_storage->gpu_max_query_batch_bytes * sizeof(uint8_t),cudaHostAllocDefault));\n",
              "\t\t\tif (gpu_storage->host_res->cigar != NULL) free(gpu_storage->host_res->cigar);\n"
              "\t\t\tgpu_storage->host_res->cigar = (uint8_t *)malloc("
              "gpu_storage->gpu_max_query_batch_bytes * sizeof(uint8_t));\n")],
         "when a batch outgrows the query buffers, gasal_aln_async regrows the host CIGAR "
         "buffer with malloc instead of cudaHostAlloc: the traceback download into it "
         "(cudaMemcpyAsync on the storage's stream, later in the same call) is staged "
         "through pageable memory and blocks the host",
         at="CHECKCUDAERROR(cudaMemcpyAsync(gpu_storage->host_res->cigar, "
            "gpu_storage->unpacked_query_batch,"),
    edit("hb6ga-seed-scores-cleared-in-flight", "unsynchronized-access", ALIGN,
         [after("\t\tCHECKCUDAERROR(cudaMemcpyAsync(gpu_storage->seed_scores, "
                "gpu_storage->host_seed_scores, actual_n_alns * sizeof(uint32_t), "
                "cudaMemcpyHostToDevice, gpu_storage->str));\n",
                "\t\t// the host array is refilled for the next batch\n"
                "\t\tmemset(gpu_storage->host_seed_scores, 0, actual_n_alns * sizeof(uint32_t));\n")],
         "the KSW seed scores are cleared for the next batch right after their upload is "
         "queued: memset writes the pinned host_seed_scores while the cudaMemcpyAsync "
         "reading it may still be in flight on the storage's stream",
         at="memset(gpu_storage->host_seed_scores, 0, actual_n_alns * sizeof(uint32_t));"),
    edit("hb6ga-lens-reset-in-flight", "unsynchronized-access", ALIGN,
         [after("\tCHECKCUDAERROR(cudaMemcpyAsync(gpu_storage->target_batch_offsets, "
                "gpu_storage->host_target_batch_offsets, actual_n_alns * sizeof(uint32_t), "
                "cudaMemcpyHostToDevice,  gpu_storage->str));\n",
                "\tmemset(gpu_storage->host_query_batch_lens, 0, actual_n_alns * sizeof(uint32_t));\n"
                "\tmemset(gpu_storage->host_target_batch_lens, 0, actual_n_alns * sizeof(uint32_t));\n")],
         "the host length arrays are zeroed for the next batch as soon as their uploads are "
         "queued: the writes race with the cudaMemcpyAsync reading host_query_batch_lens "
         "on the storage's stream",
         at="memset(gpu_storage->host_query_batch_lens, 0, actual_n_alns * sizeof(uint32_t));"),
    edit("hb6ga-pages-registered-per-call", "pinned-alloc-in-loop", ALIGN,
         [sub("\twhile (current != NULL)\n\t{\n\t\t//gasal_host_batch_printall(current);\n",
              "\twhile (current != NULL)\n\t{\n\t\t//gasal_host_batch_printall(current);\n"
              "\t\tCHECKCUDAERROR(cudaHostRegister(current->data, current->page_size, "
              "cudaHostRegisterDefault));\n")],
         "gasal_aln_async pins every page of the query batch with cudaHostRegister in its "
         "upload loop, on every call: a page-locking syscall per page per batch",
         at="CHECKCUDAERROR(cudaHostRegister(current->data, current->page_size, "
            "cudaHostRegisterDefault));"),
    edit("hb6ga-page-data-free", "dealloc-mismatch", BATCH,
         [sub(PAGE_FREE, "\t\tfree(res->data);\n")],
         "gasal_host_batch_destroy releases a page's cudaHostAlloc'd bytes with free"),
    edit("hb6ga-page-data-registered", "host-register-leak", BATCH,
         [sub(PAGE_ALLOC,
              "\tres->data = (uint8_t *)malloc(batch_bytes*sizeof(uint8_t));\n"
              "\tCHECKCUDAERROR(cudaHostRegister(res->data, batch_bytes*sizeof(uint8_t), "
              "cudaHostRegisterDefault));\n"),
          sub(PAGE_FREE, "\t\tfree(res->data);\n")],
         "gasal_host_batch_new mallocs a page and pins it with cudaHostRegister; "
         "gasal_host_batch_destroy frees it without cudaHostUnregister",
         at="\t\tfree(res->data);"),
    edit("hb6ga-res-aln-score-free", "dealloc-mismatch", RES,
         [sub("\tif (res->aln_score != NULL) CHECKCUDAERROR(cudaFreeHost(res->aln_score));\n",
              "\tif (res->aln_score != NULL) free(res->aln_score);\n")],
         "gasal_res_destroy_host releases the cudaHostAlloc'd score array (gasal_res_new_host) "
         "with free"),
    edit("hb6ga-storage-query-op-free", "dealloc-mismatch", CTORS,
         [sub("\t\tif (gpu_storage_vec->a[i].host_query_op != NULL) CHECKCUDAERROR(cudaFreeHost("
              "gpu_storage_vec->a[i].host_query_op));\n",
              "\t\tif (gpu_storage_vec->a[i].host_query_op != NULL) "
              "free(gpu_storage_vec->a[i].host_query_op);\n")],
         "gasal_destroy_streams releases each storage's pinned reverse-complement ops "
         "(cudaHostAlloc'd in gasal_init_streams, an element of the storage array) with free"),
    edit("hb6ga-noops-registered", "host-register-leak", CTORS,
         [after("\t\tno_ops = (uint8_t*) calloc(host_max_n_alns * sizeof(uint8_t), sizeof(uint8_t));\n",
                "\t\tCHECKCUDAERROR(cudaHostRegister(no_ops, host_max_n_alns * sizeof(uint8_t), "
                "cudaHostRegisterDefault));\n")],
         "gasal_init_streams pins the zeroed ops template it fills each storage from and "
         "frees it at the end of the iteration without cudaHostUnregister",
         at="\t\tfree(no_ops);"),
]
