"""Held-back injected bugs in a copy of the CUDA by Example book's sources
(CodedK/CUDA-by-Example-source-code-for-the-book-s-examples-, commit
0824fae6): chapter 10's one- and two-stream pipelines over cudaHostAlloc'd
buffers and its pinned/pageable copy timing, chapter 11's zero-copy dot
product. The files have CRLF line endings; scripts/injected-bugs.py reads
them in text mode, so the texts here have plain newlines. The repository is
named 'cuda-by-example' as the held-back manifest names it."""
from . import edit, sub, delete

R = "cuda-by-example:"
DSC = R + "chapter10/basic_double_stream_correct.cu"
DS = R + "chapter10/basic_double_stream.cu"
SS = R + "chapter10/basic_single_stream.cu"
CT = R + "chapter10/copy_timed.cu"
TZ = R + "chapter11/time_zero2.cu"


def host_alloc(var):
    return ("    HANDLE_ERROR( cudaHostAlloc( (void**)&" + var + ",\n"
            "                              FULL_DATA_SIZE * sizeof(int),\n"
            "                              cudaHostAllocDefault ) );\n")


def free_host(var):
    return "    HANDLE_ERROR( cudaFreeHost( " + var + " ) );\n"


MALLOC = "    {0} = (int*)malloc( FULL_DATA_SIZE * sizeof(int) );\n"
LOOP_END_2 = "    }\n    HANDLE_ERROR( cudaStreamSynchronize( stream0 ) );\n"
LOOP_END_1 = ("    }\n"
              "    // copy result chunk from locked to full buffer\n"
              "    HANDLE_ERROR( cudaStreamSynchronize( stream ) );\n")
CT_ALLOC = ("    HANDLE_ERROR( cudaHostAlloc( (void**)&a,\n"
            "                                 size * sizeof( *a ),\n"
            "                                 cudaHostAllocDefault ) );\n")
CHECK_LAST = '    printf( "last result: %d\\n", host_c[FULL_DATA_SIZE-1] );\n'

EDITS = [
    # pageable-copy
    edit("cbe-dsc-malloc-a", "pageable-copy", DSC,
         [sub(host_alloc("host_a"), MALLOC.format("host_a")),
          sub(free_host("host_a"), "    free( host_a );\n")],
         "the breadth-first two-stream example's input a malloc'd: its async uploads are staged"),
    edit("cbe-ds-malloc-c", "pageable-copy", DS,
         [sub(host_alloc("host_c"), MALLOC.format("host_c")),
          sub(free_host("host_c"), "    free( host_c );\n")],
         "the depth-first two-stream example's output c (both streams' D2H destination) malloc'd"),
    edit("cbe-ss-new-b", "pageable-copy", SS,
         [sub(host_alloc("host_b"), "    host_b = new int[FULL_DATA_SIZE];\n"),
          sub(free_host("host_b"), "    delete[] host_b;\n")],
         "the single-stream example's input b allocated with new[]"),

    # dealloc-mismatch
    edit("cbe-dsc-free-c", "dealloc-mismatch", DSC,
         [sub(free_host("host_c"), "    free( host_c );\n")],
         "the cudaHostAlloc'd output released with free"),
    edit("cbe-copy-timed-free-pinned", "dealloc-mismatch", CT,
         [sub("    HANDLE_ERROR( cudaFreeHost( a ) );\n", "    free( a );\n")],
         "cuda_host_alloc_test releases its cudaHostAlloc'd buffer with free, as "
         "cuda_malloc_test does"),
    edit("cbe-zero-copy-free-partial", "dealloc-mismatch", TZ,
         [sub(free_host("partial_c"), "    free( partial_c );\n")],
         "the mapped zero-copy partial sums released with free, as malloc_test does"),

    # host-register-leak
    edit("cbe-ds-register-a", "host-register-leak", DS,
         [sub(host_alloc("host_a"),
              MALLOC.format("host_a") +
              "    HANDLE_ERROR( cudaHostRegister( host_a, FULL_DATA_SIZE * sizeof(int),\n"
              "                                    cudaHostRegisterDefault ) );\n"),
          sub(free_host("host_a"), "    free( host_a );\n")],
         "input a malloc'd and registered for the streams, freed still registered"),
    edit("cbe-copy-timed-register", "host-register-leak", CT,
         [sub(CT_ALLOC,
              "    a = (int*)malloc( size * sizeof( *a ) );\n"
              "    HANDLE_ERROR( cudaHostRegister( a, size * sizeof( *a ),\n"
              "                                    cudaHostRegisterDefault ) );\n"),
          sub("    HANDLE_ERROR( cudaFreeHost( a ) );\n", "    free( a );\n")],
         "the pinned timing test pins a malloc'd buffer with cudaHostRegister and frees it "
         "still registered"),

    # unsynchronized-access
    edit("cbe-dsc-check-before-sync", "unsynchronized-access", DSC,
         [sub(LOOP_END_2, "    }\n" + CHECK_LAST +
              "    HANDLE_ERROR( cudaStreamSynchronize( stream0 ) );\n")],
         "a spot check of the last result printed right after the issuing loop, before the "
         "stream waits: stream1's last D2H copy may be in flight",
         at=CHECK_LAST.rstrip("\n")),
    edit("cbe-ss-check-before-sync", "unsynchronized-access", SS,
         [sub(LOOP_END_1, "    }\n" + CHECK_LAST +
              "    // copy result chunk from locked to full buffer\n"
              "    HANDLE_ERROR( cudaStreamSynchronize( stream ) );\n")],
         "a spot check of the last result printed before the stream wait",
         at=CHECK_LAST.rstrip("\n")),

    # sync-in-loop
    edit("cbe-dsc-stream-sync-per-chunk", "sync-in-loop", DSC,
         [sub(LOOP_END_2,
              "        HANDLE_ERROR( cudaStreamSynchronize( stream0 ) );\n"
              "        HANDLE_ERROR( cudaStreamSynchronize( stream1 ) );\n" + LOOP_END_2)],
         "both streams waited for at the end of each chunk pair, inside the issuing loop"),
    edit("cbe-ds-device-sync-per-chunk", "sync-in-loop", DS,
         [sub(LOOP_END_2, "        HANDLE_ERROR( cudaDeviceSynchronize() );\n" + LOOP_END_2)],
         "the device waited for at the end of each iteration of the two-stream loop"),

    # pinned-alloc-in-loop
    edit("cbe-copy-timed-loop-directions", "pinned-alloc-in-loop", CT,
         [sub("    elapsedTime = cuda_host_alloc_test( SIZE, true );\n"
              "    printf( \"Time using cudaHostAlloc:  %3.1f ms\\n\",\n"
              "            elapsedTime );\n"
              "    printf( \"\\tMB/s during copy up:  %3.1f\\n\",\n"
              "            MB/(elapsedTime/1000) );\n"
              "\n"
              "    elapsedTime = cuda_host_alloc_test( SIZE, false );\n"
              "    printf( \"Time using cudaHostAlloc:  %3.1f ms\\n\",\n"
              "            elapsedTime );\n"
              "    printf( \"\\tMB/s during copy down:  %3.1f\\n\",\n"
              "            MB/(elapsedTime/1000) );\n",
              "    for (int up = 1; up >= 0; up--) {\n"
              "        elapsedTime = cuda_host_alloc_test( SIZE, up );\n"
              "        printf( \"Time using cudaHostAlloc:  %3.1f ms\\n\",\n"
              "                elapsedTime );\n"
              "        printf( \"\\tMB/s during copy %s:  %3.1f\\n\", up ? \"up\" : \"down\",\n"
              "                MB/(elapsedTime/1000) );\n"
              "    }\n")],
         "the two pinned timing runs folded into a loop over directions: "
         "cuda_host_alloc_test allocates and frees its pinned buffer on every call"),

    # default-stream
    edit("cbe-dsc-kernel1-legacy", "default-stream", DSC,
         [sub("        kernel<<<N/256,256,0,stream1>>>( dev_a1, dev_b1, dev_c1 );\n",
              "        kernel<<<N/256,256>>>( dev_a1, dev_b1, dev_c1 );\n")],
         "stream1's kernel launched without its stream"),
    edit("cbe-ds-d2h-legacy", "default-stream", DS,
         [sub("        HANDLE_ERROR( cudaMemcpyAsync( host_c+i, dev_c0,\n"
              "                                       N * sizeof(int),\n"
              "                                       cudaMemcpyDeviceToHost,\n"
              "                                       stream0 ) );\n",
              "        HANDLE_ERROR( cudaMemcpyAsync( host_c+i, dev_c0,\n"
              "                                       N * sizeof(int),\n"
              "                                       cudaMemcpyDeviceToHost,\n"
              "                                       0 ) );\n")],
         "stream0's D2H copy issued on stream 0"),
]
