"""Held-back injected bugs (fifth set) in RhushabhVaghela/Custom-NVComp-with-ZSTD
(commit 30473ea2), an experimental GPU Zstandard codec (C++17/CUDA library,
its tests and benchmarks), named 'cuda-zstd' as the held-back manifest names
it. Its host code does its asynchronous work directly with the runtime API:
the compressor (src/cuda_zstd_manager.cu) runs the LZ77 phase of a frame's
blocks on a pool of up to eight streams (the caller's stream and seven it
creates with cudaStreamCreate, block i on phase1_streams[i % n]), joined by
one loop of cudaStreamSynchronize after the blocks, then reads sizes back with
cudaMemcpyAsync and a stream sync; ZstdBatchManager keeps a pool of eight
created streams and spreads a batch's items over it; the pipelined batch
manager (src/pipeline_manager.cu) keeps a ring of slots, each with a pinned
input and output buffer (safe_cuda_malloc_host, an inline wrapper of
cudaMallocHost) and three events, and drives three non-blocking streams
(H2D, compute, D2H) from the main thread and two worker threads; the
benchmarks stage data through malloc'd or pinned host buffers, pin them with
cudaMallocHost, and call the managers in loops over sizes and levels.

Real bugs of the seven kinds noticed while reading the pristine code:
pageable copies (cuda-async-pageable-copy), each staged and synchronous:
src/cuda_zstd_manager.cu:1628 and :1633 (cudaMemcpyAsync into the
std::vector h_input of the CPU fallback), :1654 and :1657 (out of the vector
h_output), :2753 (block_literals_sizes, a std::vector), :2780 (from the stack
scalar h_rle_init) and :2794/:2796 (into the stack scalars h_is_rle and
h_rle_byte, once per block); src/cuda_zstd_hybrid.cu:417, :450, :479 and :518
(std::vector staging buffers); src/lz77_parallel.cu:504-510 and :725-731
(std::vector sequence buffers uploaded with cudaMemcpyAsync);
benchmarks/benchmark_batch_throughput.cu:60 and :187 (the std::vector
h_input, uploaded once per batch item, in run_batch_benchmark and
run_graph_benchmark, which main no longer calls). None of the other six
kinds.
"""
from . import edit, sub, after, before, delete

R = "cuda-zstd:"
PIPE = R + "src/pipeline_manager.cu"
MGR = R + "src/cuda_zstd_manager.cu"
BPS = R + "benchmarks/benchmark_pipeline_streaming.cu"
BAL = R + "benchmarks/benchmark_all_levels.cu"
BBT = R + "benchmarks/benchmark_batch_throughput.cu"

EDITS = [
    edit("hb5cz-pipeline-d2h-no-wait", "unsynchronized-access", PIPE,
         [delete("      // Sync Stream 2\n"
                 "      cudaStreamSynchronize(streams_[2]);\n")],
         "the D2H worker of the pipelined batch manager no longer waits for its "
         "stream: the user's output callback reads the slot's pinned h_output while "
         "the cudaMemcpyAsync into it may still be in flight on streams_[2]",
         at="output_callback(slot.h_output, slot.current_output_size);"),
    edit("hb5cz-pipeline-refill-before-free", "unsynchronized-access", PIPE,
         [delete("    // Wait for slot to be free\n"
                 "    cudaEventSynchronize(slot.event_downloaded);\n")],
         "the H2D driver loop refills a ring slot without waiting for its "
         "event_downloaded: the input callback writes the slot's pinned h_input while "
         "the upload from it, issued when the ring last came round, may still be "
         "reading it on streams_[0]",
         at="input_callback(slot.h_input, slot.input_capacity, &bytes_read);"),
    edit("hb5cz-pipeline-output-malloc", "pageable-copy", PIPE,
         [sub("    if (cuda_zstd::safe_cuda_malloc_host(&ring_buffer_[i].h_output, output_bound) != cudaSuccess)\n"
              "      return Status::ERROR_OUT_OF_MEMORY;\n",
              "    ring_buffer_[i].h_output = malloc(output_bound);\n"
              "    if (ring_buffer_[i].h_output == nullptr)\n"
              "      return Status::ERROR_OUT_OF_MEMORY;\n"),
          sub("    cudaFreeHost(slot.h_output);\n", "    free(slot.h_output);\n")],
         "the ring slots' output buffers are malloc'd: every D2H copy of a compressed "
         "batch into h_output is staged and synchronous, and the D2H stream cannot "
         "overlap the next batch's compression",
         at="cudaMemcpyAsync(slot.h_output, slot.d_output, slot.current_output_size,"),
    edit("hb5cz-pipeline-input-malloc", "pageable-copy", PIPE,
         [sub("    if (cuda_zstd::safe_cuda_malloc_host(&ring_buffer_[i].h_input, batch_size_) != cudaSuccess)\n"
              "      return Status::ERROR_OUT_OF_MEMORY;\n",
              "    ring_buffer_[i].h_input = malloc(batch_size_);\n"
              "    if (ring_buffer_[i].h_input == nullptr)\n"
              "      return Status::ERROR_OUT_OF_MEMORY;\n"),
          sub("    cudaFreeHost(slot.h_input);\n", "    free(slot.h_input);\n")],
         "the ring slots' input buffers are malloc'd: each batch's upload from h_input "
         "on the H2D stream is staged and synchronous",
         at="cudaMemcpyAsync(slot.d_input, slot.h_input, bytes_read,"),
    edit("hb5cz-pipeline-input-free", "dealloc-mismatch", PIPE,
         [sub("    cudaFreeHost(slot.h_input);\n", "    free(slot.h_input);\n")],
         "cleanup_resources releases the slots' pinned input buffers "
         "(safe_cuda_malloc_host) with free"),
    edit("hb5cz-bench-pipeline-output-free", "dealloc-mismatch", BPS,
         [sub("  CHECK_CUDA(cudaFreeHost(h_output));\n", "  free(h_output);\n")],
         "the pipeline benchmark releases its pinned output buffer "
         "(safe_cuda_malloc_host) with free"),
    edit("hb5cz-phase1-per-block-sync", "sync-in-loop", MGR,
         [sub("        // (OPTIMIZATION) Removed per-block sync to allow pipelining\n"
              "        // cudaStreamSynchronize(block_stream);\n",
              "        cudaStreamSynchronize(block_stream);\n")],
         "the per-block sync of the LZ77 phase is back: each block waits for its own "
         "match finding on its pool stream before the next block is issued on the "
         "next stream, so the blocks of a frame no longer overlap"),
    edit("hb5cz-phase1-memset-legacy", "default-stream", MGR,
         [sub("      cudaMemsetAsync(block_ws.d_lz77_temp, 0, lz77_temp_size, block_stream);\n",
              "      cudaMemsetAsync(block_ws.d_lz77_temp, 0, lz77_temp_size);\n")],
         "the per-block clear of the LZ77 decisions is issued without its stream: a "
         "memset on the legacy default stream in the block loop, which waits for the "
         "other blocks' work on the pool streams and holds back the next block's"),
    edit("hb5cz-batch-decompress-per-item-sync", "sync-in-loop", MGR,
         [sub("        item.input_ptr, item.input_size, item.output_ptr, &item.output_size,\n"
              "        item_workspace, max_item_temp_size, item_stream);\n",
              "        item.input_ptr, item.input_size, item.output_ptr, &item.output_size,\n"
              "        item_workspace, max_item_temp_size, item_stream);\n"
              "    cudaStreamSynchronize(item_stream);\n")],
         "decompress_batch waits for each item on its pool stream before issuing the "
         "next item on the next stream, so the eight-stream pool decompresses one "
         "item at a time"),
    edit("hb5cz-bench-encode-input-registered", "host-register-leak", BAL,
         [sub("  // Generate and copy test data\n"
              "  void *h_input = malloc(data_size);\n",
              "  // Generate and copy test data\n"
              "  void *h_input = malloc(data_size);\n"
              "  CHECK_CUDA(cudaHostRegister(h_input, data_size, cudaHostRegisterDefault));\n")],
         "the encoding benchmark pins its malloc'd input with cudaHostRegister for the "
         "upload and frees it at the end without cudaHostUnregister",
         at="  CHECK_CUDA(cudaFree(d_output));\n  CHECK_CUDA(cudaFree(d_input));\n  free(h_input);"),
    edit("hb5cz-bench-decode-staging-registered", "host-register-leak", BAL,
         [sub("  void *h_compressed = malloc(max_output_size);\n",
              "  void *h_compressed = malloc(max_output_size);\n"
              "  CHECK_CUDA(cudaHostRegister(h_compressed, max_output_size, cudaHostRegisterDefault));\n")],
         "the decoding benchmark pins its malloc'd compressed-data staging buffer and "
         "frees it without cudaHostUnregister",
         at="  free(h_compressed);"),
    edit("hb5cz-bench-pipeline-pinned-per-call", "pinned-alloc-in-loop", BAL,
         [sub("  // Generate test data\n"
              "  void *h_input = malloc(data_size);\n",
              "  // Generate test data\n"
              "  void *h_input = nullptr;\n"
              "  CHECK_CUDA(cudaMallocHost(&h_input, data_size));\n"),
          sub("  CHECK_CUDA(cudaFree(d_compressed));\n"
              "  CHECK_CUDA(cudaFree(d_input));\n"
              "  free(h_input);\n",
              "  CHECK_CUDA(cudaFree(d_compressed));\n"
              "  CHECK_CUDA(cudaFree(d_input));\n"
              "  CHECK_CUDA(cudaFreeHost(h_input));\n")],
         "the full-pipeline benchmark stages its input in pinned memory it allocates "
         "and frees on every call, and main calls it for every pattern, size and "
         "level"),
    edit("hb5cz-bench-batch-pattern-registered-per-case", "pinned-alloc-in-loop", BBT,
         [sub("    for (int i = 0; i < batch_cnt; ++i) {\n"
              "      BENCH_CHECK(cuda_zstd::safe_cuda_malloc(&d_inputs[i], chunk_size));\n",
              "    BENCH_CHECK(cudaHostRegister(h_pattern.data(), chunk_size,\n"
              "                                 cudaHostRegisterDefault));\n"
              "    for (int i = 0; i < batch_cnt; ++i) {\n"
              "      BENCH_CHECK(cuda_zstd::safe_cuda_malloc(&d_inputs[i], chunk_size));\n"),
          sub("    cudaDeviceSynchronize();\n"
              "    auto start = std::chrono::high_resolution_clock::now();\n",
              "    BENCH_CHECK(cudaHostUnregister(h_pattern.data()));\n"
              "    cudaDeviceSynchronize();\n"
              "    auto start = std::chrono::high_resolution_clock::now();\n")],
         "the batch benchmark pins each case's host pattern with cudaHostRegister for "
         "the uploads and unregisters it again, once per iteration of the loop over "
         "batch cases"),
]
