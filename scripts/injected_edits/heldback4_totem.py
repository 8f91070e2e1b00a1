"""Held-back injected bugs (fourth set) in netsyslab/Totem (commit
05958acd), a hybrid CPU+GPU graph-processing engine (BFS, SSSP, PageRank,
betweenness, Graph500 and others over a partitioned graph): the engine
(src/totem) runs bulk-synchronous supersteps in which every GPU partition
has two created streams (streams[0] for communication, streams[1] for
compute, created in totem_partition.cu), GPU kernels are launched
asynchronously through per-algorithm callbacks, boundary messages move
between partitions' outboxes and inboxes with cudaMemcpyAsync
(totem_grooves.cu, double-buffered, waited for at the end of each
superstep), and the global termination flag is a cudaHostAlloc'd mapped
bool written by kernels. Host memory is mostly allocated through
totem_malloc(size, TOTEM_MEM_HOST | _PINNED | _MAPPED | _DEVICE), a
flag-switched wrapper (totem_mem.cu), so the provenance of most host
buffers is unknown to a per-file analysis. Built with FEATURE_SM35 (the
makefile's default) and -D__STDC_LIMIT_MACROS, including src/totem and
src/alg. The repository is named 'totem' as the held-back manifest names it.

Real bugs of the seven kinds noticed while reading the pristine code:

- alg/totem_graph500_stepwise_hybrid.cu:839-845 and :854-858 (pageable-copy,
  behind the wrapper): graph500_alloc_prepare_maps stages each remote
  partition's neighbour map in totem_malloc(..., TOTEM_MEM_HOST) memory,
  which is malloc, and moves it with cudaMemcpyAsync followed at once by a
  stream wait: staged, synchronous copies (harmless at set-up time).
- alg/totem_betweenness_hybrid.cu:189, :224, :456 and totem/totem_bitmap.cu:76:
  a frontier count is read back with cudaMemcpyAsync into a local vid_t on
  the stack (pageable) and then waited for: small staged copies.
- Not of the seven kinds: totem_betweenness_hybrid.cu:162-163 (and
  totem_graph500_stepwise_hybrid.cu:384-385) create a non-blocking stream per
  frontier bucket in every call from the device side and never destroy it;
  page_rank_incoming_hybrid.cu:365 writes ps->sections[0] while the
  cudaMemcpyAsync into &ps->sections[1] is pending (a disjoint element: no
  race, but a per-buffer analysis may flag it).
"""
from . import edit, sub, after, before, delete

ALG = "totem:src/alg/"
TOT = "totem:src/totem/"
BC = ALG + "totem_betweenness_hybrid.cu"
G500 = ALG + "totem_graph500_stepwise_hybrid.cu"
ENG = TOT + "totem_engine.cu"
GRV = TOT + "totem_grooves.cu"

MAP_ALLOC = ("      CALL_SAFE(totem_malloc(par->outbox[pid].count * sizeof(vid_t),\n"
             "                             TOTEM_MEM_HOST, (void**)&(local_to_global)));\n")
MAP_FREE = "      totem_free(local_to_global, TOTEM_MEM_HOST);\n"
MAP_D2H_WAIT = ("                                   cudaMemcpyDefault, par->streams[1]));\n"
                "      CALL_CU_SAFE(cudaStreamSynchronize(par->streams[1]));\n"
                "    }\n")

EDITS = [
    # default-stream
    edit("hb4tt-bc-outbox-clear-legacy", "default-stream", BC,
         [sub("    cudaMemsetAsync(outbox->push_values, 0, outbox->count * sizeof(uint32_t),\n"
              "                    par->streams[1]);\n",
              "    cudaMemsetAsync(outbox->push_values, 0, outbox->count * sizeof(uint32_t));\n")],
         "betweenness_forward_gpu clears each remote outbox with cudaMemsetAsync on the "
         "legacy stream (stream argument dropped): the frontier-count download and the "
         "forward kernels on the partition's streams[1] wait for every clear"),
    # pinned-alloc-in-loop
    edit("hb4tt-g500-map-staging-pinned-per-partition", "pinned-alloc-in-loop", G500,
         [sub(MAP_ALLOC,
              "      CALL_CU_SAFE(cudaMallocHost((void**)&local_to_global,\n"
              "                                  par->outbox[pid].count * sizeof(vid_t)));\n"),
          sub(MAP_FREE, "      CALL_CU_SAFE(cudaFreeHost(local_to_global));\n")],
         "graph500_alloc_prepare_maps pins (and releases) a staging buffer for every "
         "remote partition in its loop over partitions, around the two async copies of "
         "the neighbour map"),
    # host-register-leak
    edit("hb4tt-g500-map-staging-registered-then-freed", "host-register-leak", G500,
         [sub(MAP_ALLOC,
              "      local_to_global = (vid_t*)malloc(par->outbox[pid].count * sizeof(vid_t));\n"
              "      CALL_CU_SAFE(cudaHostRegister(local_to_global,\n"
              "                                    par->outbox[pid].count * sizeof(vid_t),\n"
              "                                    cudaHostRegisterDefault));\n"),
          sub(MAP_FREE, "      free(local_to_global);\n")],
         "the neighbour-map staging buffer malloc'd and pinned with cudaHostRegister for "
         "its two async copies, then freed at the end of the iteration without "
         "cudaHostUnregister"),
    # unsynchronized-access
    edit("hb4tt-g500-map-read-before-wait", "unsynchronized-access", G500,
         [sub(MAP_D2H_WAIT,
              "                                   cudaMemcpyDefault, par->streams[1]));\n"
              "    }\n")],
         "the wait after downloading a remote partition's neighbour map dropped: the host "
         "loop rewrites local_to_global[i] (local to global ids) while the "
         "cudaMemcpyAsync into it on streams[1] may still be running",
         at="      local_to_global[i] = engine_vertex_id_local_to_global("),
    # sync-in-loop
    edit("hb4tt-grooves-copy-waited-per-partition", "sync-in-loop", GRV,
         [sub("    CALL_CU_SAFE(cudaMemcpyAsync(dst, src, bits_to_bytes(count * msg_size),\n"
              "                                 cudaMemcpyDefault, *stream));\n",
              "    CALL_CU_SAFE(cudaMemcpyAsync(dst, src, bits_to_bytes(count * msg_size),\n"
              "                                 cudaMemcpyDefault, *stream));\n"
              "    CALL_CU_SAFE(cudaStreamSynchronize(*stream));\n")],
         "grooves_launch_communications waits for each remote partition's message copy "
         "(on that pair's communication or compute stream, chosen per partition) before "
         "it issues the next one, serializing the superstep's transfers; the stream is "
         "reached through the pointer launch_communications_setup returns"),
    # dealloc-mismatch
    edit("hb4tt-engine-finished-flag-free", "dealloc-mismatch", ENG,
         [sub("  CALL_CU_SAFE(cudaFreeHost(context.finished));\n",
              "  free(context.finished);\n")],
         "engine_finalize releases the mapped termination flag (cudaHostAlloc, "
         "cudaHostAllocMapped) with free"),
    edit("hb4tt-engine-comm-flags-freehost", "dealloc-mismatch", ENG,
         [sub("  free(context.comm_curr);\n",
              "  CALL_CU_SAFE(cudaFreeHost(context.comm_curr));\n")],
         "engine_finalize releases the malloc'd per-partition communication flags with "
         "cudaFreeHost, as if they were pinned like the termination flag"),
]
