"""Injected bugs in olcf/cuda-training-series (commit 9cd77d5): the
overlap and streams exercises' solutions (built with -DUSE_STREAMS)."""
from . import edit, sub, after, before

R = "cuda-training-series:"
OV = R + "exercises/hw7/overlap_solution.cu"
ST = R + "exercises/hw10/streams_solution.cu"

D2H = ("    cudaMemcpyAsync(h_y + i * (ds / chunks), d_y + i * (ds / chunks), "
       "(ds / chunks) * sizeof(ft), cudaMemcpyDeviceToHost, "
       "streams[i % num_streams]);\n")
H2D = ("    cudaMemcpyAsync(d_x + i * (ds / chunks), h_x + i * (ds / chunks), "
       "(ds / chunks) * sizeof(ft), cudaMemcpyHostToDevice, "
       "streams[i % num_streams]);\n")
FINAL = "  cudaDeviceSynchronize();\n  cudaCheckErrors(\"streams execution error\");\n"
KERNEL = ("    gaussian_pdf<<<((ds / chunks) + 255) / 256, 256, 0, "
          "streams[i % num_streams]>>>")

EDITS = []
for tag, path in (("overlap", OV), ("streams", ST)):
    EDITS += [
        edit("cts-%s-no-final-sync" % tag, "unsynchronized-access", path,
             [sub(FINAL, "  cudaCheckErrors(\"streams execution error\");\n")],
             "the results checked without waiting for the streams",
             at="    if (h_y[i] != h_y1[i]) {"),
        edit("cts-%s-sync-each-chunk" % tag, "sync-in-loop", path,
             [after(D2H, "    cudaStreamSynchronize(streams[i % num_streams]);\n")],
             "each chunk's stream waited for inside the issuing loop"),
        edit("cts-%s-kernel-on-legacy" % tag, "default-stream", path,
             [sub(KERNEL, "    gaussian_pdf<<<((ds / chunks) + 255) / 256, 256>>>")],
             "the chunks' kernels launched on the legacy stream"),
        edit("cts-%s-pageable-output" % tag, "pageable-copy", path,
             [sub("  cudaHostAlloc(&h_y,  ds*sizeof(ft), cudaHostAllocDefault);\n",
                  "  h_y = (ft *)malloc(ds*sizeof(ft));\n")],
             "the output buffer malloc'd"),
        edit("cts-%s-pin-each-chunk" % tag, "pinned-alloc-in-loop", path,
             [before(H2D, "    ft *chunk_h;\n"
                     "    cudaMallocHost(&chunk_h, (ds / chunks) * sizeof(ft));\n"
                     "    cudaFreeHost(chunk_h);\n")],
             "a pinned chunk allocated and freed in the issuing loop"),
    ]
