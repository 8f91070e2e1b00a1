"""Held-back injected bugs (second set) in xmrig/xmrig-cuda (commit
01d53486), the CUDA plugin of a crypto miner (src/): CryptoNight, RandomX
and KawPow kernels on the default stream (built --default-stream
per-thread), blocking uploads of the job and downloads of the found nonces,
a mapped pinned stop flag. The original has almost no async copies, so most
edits make one of its blocking copies async, as a developer chasing latency
could. The repository is named 'xmrig-cuda' as the held-back manifest names
it."""
from . import edit, sub, after, before, delete

R = "xmrig-cuda:"
EXTRA = R + "src/cuda_extra.cu"
KAWPOW = R + "src/KawPow/raven/KawPow.cu"

EDITS = [
    # pageable-copy
    edit("hb2xmr-set-data-async-stack", "pageable-copy", EXTRA,
         [sub("    CUDA_CHECK(ctx->device_id, cudaMemcpy(ctx->d_input, buf, ctx->inputlen, "
              "cudaMemcpyHostToDevice));\n",
              "    CUDA_CHECK(ctx->device_id, cudaMemcpyAsync(ctx->d_input, buf, ctx->inputlen, "
              "cudaMemcpyHostToDevice, 0));\n")],
         "the padded job blob, a local array, uploaded with cudaMemcpyAsync"),
    edit("hb2xmr-kawpow-results-async", "pageable-copy", KAWPOW,
         [sub("    CUDA_CHECK(ctx->device_id, cudaMemcpy(results, ctx->d_result_nonce, "
              "sizeof(results), cudaMemcpyDeviceToHost));\n",
              "    CUDA_CHECK(ctx->device_id, cudaMemcpyAsync(results, ctx->d_result_nonce, "
              "sizeof(results), cudaMemcpyDeviceToHost, 0));\n"
              "    CUDA_CHECK(ctx->device_id, cudaStreamSynchronize(0));\n")],
         "KawPow's found nonces read back with cudaMemcpyAsync into the local array "
         "results[16]"),

    # dealloc-mismatch
    edit("hb2xmr-kawpow-stop-flag-free", "dealloc-mismatch", KAWPOW,
         [sub("        CUDA_CHECK(ctx->device_id, cudaHostGetDevicePointer("
              "&ctx->kawpow_stop_device, ctx->kawpow_stop_host, 0));\n",
              "        if (cudaHostGetDevicePointer(&ctx->kawpow_stop_device, "
              "ctx->kawpow_stop_host, 0) != cudaSuccess) {\n"
              "            free(ctx->kawpow_stop_host);\n"
              "            CUDA_THROW(\"cannot map the KawPow stop flag\");\n"
              "        }\n")],
         "an error path added for the mapping of the pinned stop flag releases it with "
         "free"),
    edit("hb2xmr-context-probe-pinned", "dealloc-mismatch", EXTRA,
         [sub("    if (cudaMalloc(&tmp, 256) != cudaSuccess) {\n",
              "    if (cudaMallocHost(&tmp, 256) != cudaSuccess) {\n")],
         "the small allocation that makes the runtime create the context turned into a "
         "pinned one, still released with cudaFree"),

    # unsynchronized-access
    edit("hb2xmr-final-results-async", "unsynchronized-access", EXTRA,
         [sub("    CUDA_CHECK(ctx->device_id, cudaDeviceSynchronize());\n\n"
              "    CUDA_CHECK(ctx->device_id, cudaMemcpy(rescount, ctx->d_result_count, "
              "sizeof(uint32_t), cudaMemcpyDeviceToHost));\n"
              "    CUDA_CHECK(ctx->device_id, cudaMemcpy(resnonce, ctx->d_result_nonce, "
              "16 * sizeof(uint32_t), cudaMemcpyDeviceToHost));\n",
              "    CUDA_CHECK(ctx->device_id, cudaMemcpyAsync(rescount, ctx->d_result_count, "
              "sizeof(uint32_t), cudaMemcpyDeviceToHost, 0));\n"
              "    CUDA_CHECK(ctx->device_id, cudaMemcpyAsync(resnonce, ctx->d_result_nonce, "
              "16 * sizeof(uint32_t), cudaMemcpyDeviceToHost, 0));\n")],
         "cryptonight_extra_cpu_final's device sync dropped and the result copies made "
         "async: the count and the nonces are read and adjusted on the host with no wait",
         at="    if (*rescount > 10) {"),
]
