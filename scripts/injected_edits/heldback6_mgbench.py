"""Held-back injected bugs (sixth set) in tbennun/mgbench (commit 6f12d384),
a multi-GPU benchmark suite by Tal Ben-Nun (the author of MAPS-Multi)
measuring host-GPU and peer-to-peer transfer bandwidth and latency, named
'mgbench' as the held-back manifest names it. Its asynchronous host code is
in the L1 benchmarks, one program per file with gflags options: halfduplex
(src/L1/halfduplex.cpp) copies a cudaMallocHost'd buffer to or from one GPU,
or GPU to GPU with cudaMemcpyPeerAsync, in chunks on the legacy stream,
timing a loop of repetitions with a device sync per repetition; fullduplex
(src/L1/fullduplex.cpp) exchanges two buffers between a pair of GPUs with two
cudaMemcpyPeerAsync per repetition on two non-blocking streams, one per
device; scatter (src/L1/scatter.cpp) broadcasts a (pinned, when the source
is the host) buffer either along a ring of GPUs, chunk by chunk, each hop on
its device's non-blocking stream chained to the previous hop by an event per
(device, chunk), or with one host thread per GPU (std::thread and a MAPS
barrier) copying on a stream made with cudaStreamCreate, then gathering back;
uva (src/L1/uva.cu) copies through UVA with a kernel on a non-blocking
stream reading peer or cudaMallocHost'd (mapped) memory, a second kernel on
the other device's stream in full-duplex mode. The L2 benchmarks
(src/L2/sgemm, src/L2/gol) are left out: their .cu files include MAPS's
texref.cuh, which uses texture references (removed in CUDA 12); their
main.cpp files go with them. The build (CMake, FindCUDA's
cuda_add_executable) compiles uva.cu with nvcc -std=c++11 and the .cpp files
with the host compiler; it defines nothing that changes stream semantics.
gflags comes from deps/gflags, built by the CMake project (its headers are
generated); the manifest relies on Debian's libgflags-dev instead
(/usr/include/gflags, installed with apt-get), and lists deps/maps/include,
the repository's copy of MAPS, whose maps/multi/worker.h gives scatter.cpp
its barrier.

Every stream the L1 programs create is non-blocking except
BroadcastOneToAll's, and in the ring and duplex tests each created stream
lives on its own device, so a
default-stream edit is a real bug only where a legacy-stream operation shares
its device with a blocking stream: fullduplex with device b's stream made
blocking, and the gather of scatter (every thread's stream on the
destination GPU). A sync-in-loop edit is real where the loop overlaps work on
several streams: fullduplex's two directions, the ring's hops and chunks.

Real bugs of the seven kinds noticed while reading the pristine code: none.
"""
from . import edit, sub, after, before, delete

L1 = "mgbench:src/L1/"
HALF = L1 + "halfduplex.cpp"
FULL = L1 + "fullduplex.cpp"
SCATTER = L1 + "scatter.cpp"
UVA = L1 + "uva.cu"

HD_ALLOC = "    CUDA_CHECK(cudaMallocHost(&host_buff, FLAGS_size));\n"
HD_FREE = "    CUDA_CHECK(cudaFreeHost(host_buff));\n"
HD_REP = ("    for(uint64_t i = 0; i < FLAGS_repetitions; ++i)\n"
          "    {\n"
          "        char *devp = (char *)dev_buff, *hostp = (char *)host_buff;\n")
HD_REP_END = ("        CUDA_CHECK(cudaSetDevice(dev));\n"
              "        CUDA_CHECK(cudaDeviceSynchronize());\n"
              "    }\n")
FD_B_STREAM = "    CUDA_CHECK(cudaStreamCreateWithFlags(&b_stream, cudaStreamNonBlocking));\n"
FD_COPY_B = ("        CUDA_CHECK(cudaMemcpyPeerAsync(devb_buff, b, deva_buff, a,\n"
             "                                       FLAGS_size, b_stream));\n")
FD_COPY_A = ("        CUDA_CHECK(cudaMemcpyPeerAsync(deva_buff2, a, devb_buff2, b,\n"
             "                                       FLAGS_size, a_stream));\n")
RING_RECORD = "                CUDA_CHECK(cudaEventRecord(GET_CHUNK(d, chunk), streams[d]));\n"
RING_CHUNK_END = ("            }\n"
                  "\n"
                  "            \n"
                  "            offset += curchunk;\n")
RING_SRC = "    void *src_buffer = MallocDevice(src_dev, FLAGS_size);\n"
RING_REP = ("    for(uint64_t i = 0; i < FLAGS_repetitions; ++i)\n"
            "    {\n"
            "        size_t curchunk = chunk_size;\n"
            "        size_t offset = 0;\n")
RING_REP_END = ("        CUDA_CHECK(cudaEventSynchronize(GET_CHUNK(ndevs - 1,\n"
                "                                                  num_chunks - 1)));\n")
ONE_COPY = "           CopyDev2Dev(dst_dev, dstp, src_dev, srcp, curchunk, stream);\n"
UVA_FULL = ("        if (FLAGS_fullduplex)\n"
            "        {\n"
            "            if (a > 0)\n"
            "                CUDA_CHECK_RET(cudaSetDevice(a - 1));\n")

EDITS = [
    # --- halfduplex.cpp ---
    edit("hb6mg-halfduplex-host-malloc", "pageable-copy", HALF,
         [sub(HD_ALLOC, "    host_buff = malloc(FLAGS_size);\n"),
          sub(HD_FREE, "    free(host_buff);\n")],
         "CopyHostDevice takes its host buffer from malloc instead of cudaMallocHost: every "
         "chunk's cudaMemcpyAsync to or from it is staged through pageable memory and "
         "returns only when the copy is done, so the benchmark measures pageable transfers "
         "and the chunks no longer queue",
         at="CUDA_CHECK(cudaMemcpyAsync(devp, hostp,"),
    edit("hb6mg-halfduplex-host-free", "dealloc-mismatch", HALF,
         [sub(HD_FREE, "    free(host_buff);\n")],
         "CopyHostDevice releases its cudaMallocHost'd host buffer with free"),
    edit("hb6mg-halfduplex-pinned-per-rep", "pinned-alloc-in-loop", HALF,
         [delete(HD_ALLOC),
          delete(HD_FREE),
          sub(HD_REP, HD_REP.replace("    {\n", "    {\n" + HD_ALLOC.replace("    ", "        ", 1), 1)),
          sub(HD_REP_END, HD_REP_END.replace("    }\n", "        CUDA_CHECK(cudaFreeHost(host_buff));\n    }\n"))],
         "CopyHostDevice allocates (cudaMallocHost) and releases its pinned host buffer in "
         "every timed repetition, around the chunked copies: a page-locking allocation per "
         "repetition inside the measured loop",
         at="        CUDA_CHECK(cudaMallocHost(&host_buff, FLAGS_size));"),
    edit("hb6mg-halfduplex-host-registered", "host-register-leak", HALF,
         [sub(HD_ALLOC, "    host_buff = malloc(FLAGS_size);\n"
                        "    CUDA_CHECK(cudaHostRegister(host_buff, FLAGS_size, "
                        "cudaHostRegisterDefault));\n"),
          sub(HD_FREE, "    free(host_buff);\n")],
         "CopyHostDevice pins a malloc'd host buffer with cudaHostRegister and frees it "
         "without cudaHostUnregister (once per GPU and direction the benchmark tests)",
         at="    free(host_buff);"),
    # --- fullduplex.cpp ---
    edit("hb6mg-fullduplex-reverse-legacy", "default-stream", FULL,
         [sub(FD_B_STREAM, "    CUDA_CHECK(cudaStreamCreate(&b_stream));\n"),
          sub(FD_COPY_A, FD_COPY_A.replace("FLAGS_size, a_stream));", "FLAGS_size));"))],
         "CopySegment makes device b's stream blocking and issues the b-to-a copy without a "
         "stream: it goes to the legacy stream of the current device (b, set last), which "
         "waits for the a-to-b copy on b_stream and makes the next one wait for it, so the "
         "full-duplex exchange runs one direction at a time",
         at="        CUDA_CHECK(cudaMemcpyPeerAsync(deva_buff2, a, devb_buff2, b,"),
    edit("hb6mg-fullduplex-wait-between-directions", "sync-in-loop", FULL,
         [after(FD_COPY_B, "        CUDA_CHECK(cudaStreamSynchronize(b_stream));\n")],
         "each repetition waits for the a-to-b copy on b_stream before issuing the b-to-a "
         "copy on a_stream: the two directions of the exchange never overlap",
         at="        CUDA_CHECK(cudaStreamSynchronize(b_stream));"),
    # --- scatter.cpp ---
    edit("hb6mg-scatter-ring-wait-per-hop", "sync-in-loop", SCATTER,
         [after(RING_RECORD, "                CUDA_CHECK(cudaStreamSynchronize(streams[d]));\n")],
         "BroadcastRing waits for each hop's copy on its device's stream before issuing the "
         "next device's: the chunks no longer travel the ring concurrently, one hop is in "
         "flight at a time",
         at="                CUDA_CHECK(cudaStreamSynchronize(streams[d]));"),
    edit("hb6mg-scatter-ring-wait-last-device", "sync-in-loop", SCATTER,
         [sub(RING_CHUNK_END,
              "            }\n"
              "\n"
              "            // the chunk has reached the last GPU\n"
              "            CUDA_CHECK(cudaStreamSynchronize(streams[ndevs - 1]));\n"
              "            offset += curchunk;\n")],
         "after the loop over devices, BroadcastRing waits for the last device's stream "
         "(a constant index) before starting the next chunk: each chunk crosses the whole "
         "ring before the next leaves the source, so the chunked pipeline is serialized",
         at="            CUDA_CHECK(cudaStreamSynchronize(streams[ndevs - 1]));"),
    edit("hb6mg-scatter-ring-source-per-rep", "pinned-alloc-in-loop", SCATTER,
         [delete(RING_SRC),
          delete("    FreeDevice(src_dev, src_buffer);\n"),
          sub(RING_REP, RING_REP + "        void *src_buffer = MallocDevice(src_dev, FLAGS_size);\n"),
          after(RING_REP_END, "        FreeDevice(src_dev, src_buffer);\n")],
         "BroadcastRing allocates its source buffer in every timed repetition through "
         "MallocDevice, which for a host source (--source=-1) is cudaMallocHost, and "
         "releases it with cudaFreeHost (FreeDevice) at the end of the repetition",
         at="        void *src_buffer = MallocDevice(src_dev, FLAGS_size);"),
    edit("hb6mg-scatter-host-buffer-free", "dealloc-mismatch", SCATTER,
         [sub("      CUDA_CHECK(cudaFreeHost(buff));\n", "      free(buff);\n")],
         "FreeDevice releases a host buffer (cudaMallocHost'd by MallocDevice when the "
         "device id is negative) with free"),
    edit("hb6mg-scatter-gather-remainder-legacy", "default-stream", SCATTER,
         [sub(ONE_COPY,
              "           if (chunk == num_chunks - 1) // remainder: default stream\n"
              "               CopyDev2Dev(dst_dev, dstp, src_dev, srcp, curchunk, 0);\n"
              "           else\n"
              "               " + ONE_COPY.lstrip())],
         "BroadcastOneToAll issues the last chunk of each repetition on the legacy stream "
         "instead of its created (blocking) stream: in the gather every GPU thread copies "
         "into the same destination GPU, whose legacy stream waits for all the threads' "
         "blocking streams there, so the concurrent gathers are serialized at each repetition",
         at="               CopyDev2Dev(dst_dev, dstp, src_dev, srcp, curchunk, 0);"),
    # --- uva.cu ---
    edit("hb6mg-uva-host-source-rewritten", "unsynchronized-access", UVA,
         [before(UVA_FULL,
                 "        // refresh the host source for the next repetition\n"
                 "        if (a == 0 && !FLAGS_write)\n"
                 "            memset(deva_buff, i & 0xff, FLAGS_size);\n")],
         "CopySegmentUVA refills the host (cudaMallocHost'd, mapped) source in each "
         "repetition right after launching the UVA copy kernel that reads it on b_stream: "
         "the host writes race with the kernel's reads",
         at="            memset(deva_buff, i & 0xff, FLAGS_size);"),
]
